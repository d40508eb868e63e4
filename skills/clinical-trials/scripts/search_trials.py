#!/usr/bin/env python3
"""Search ClinicalTrials.gov.

Usage: search_trials.py --condition TEXT [--intervention TEXT] [--status LIST] [--phase PHASE] [--limit N]
"""
import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

API = "https://clinicaltrials.gov/api/v2"


def summary(study):
    p = study.get("protocolSection", {})
    ident = p.get("identificationModule", {})
    status = p.get("statusModule", {})
    return {
        "nct_id": ident.get("nctId"),
        "title": ident.get("briefTitle"),
        "status": status.get("overallStatus"),
        "phases": p.get("designModule", {}).get("phases", []),
        "conditions": p.get("conditionsModule", {}).get("conditions", []),
        "interventions": [i.get("name") for i in p.get("armsInterventionsModule", {}).get("interventions", [])],
        "sponsor": p.get("sponsorCollaboratorsModule", {}).get("leadSponsor", {}).get("name"),
        "start_date": status.get("startDateStruct", {}).get("date"),
    }


def main():
    p = argparse.ArgumentParser(description="Search ClinicalTrials.gov")
    p.add_argument("--condition")
    p.add_argument("--intervention")
    p.add_argument("--status")
    p.add_argument("--phase")
    p.add_argument("--limit", type=int, default=20)
    a = p.parse_args()
    if not a.condition and not a.intervention:
        sys.exit("give --condition or --intervention")
    params = {"pageSize": min(max(a.limit, 1), 100), "countTotal": "true"}
    if a.condition:
        params["query.cond"] = a.condition
    if a.intervention:
        params["query.intr"] = a.intervention
    if a.status:
        params["filter.overallStatus"] = a.status.upper()
    if a.phase:
        params["filter.advanced"] = f"AREA[Phase]{a.phase.upper()}"
    trials, total = [], None
    while len(trials) < a.limit:
        with urllib.request.urlopen(f"{API}/studies?{urllib.parse.urlencode(params)}", timeout=30) as r:
            page = json.load(r)
        if total is None:
            total = page.get("totalCount")
        trials += [summary(s) for s in page.get("studies", [])]
        if not page.get("nextPageToken"):
            break
        params["pageToken"] = page["nextPageToken"]
    print(json.dumps({"total": total, "trials": trials[: a.limit]}, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"ClinicalTrials.gov answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach ClinicalTrials.gov: {e.reason}")
