#!/usr/bin/env python3
"""Summarise one trial of ClinicalTrials.gov.

Usage: get_trial.py NCT_ID
"""
import json
import re
import sys
import urllib.error
import urllib.request

API = "https://clinicaltrials.gov/api/v2"


def main():
    if len(sys.argv) != 2 or not re.fullmatch(r"NCT\d{8}", sys.argv[1].upper()):
        sys.exit("usage: get_trial.py NCT_ID (NCT and 8 digits)")
    nct = sys.argv[1].upper()
    try:
        with urllib.request.urlopen(f"{API}/studies/{nct}", timeout=30) as r:
            study = json.load(r)
    except urllib.error.HTTPError as e:
        if e.code == 404:
            print(f"no trial {nct}", file=sys.stderr)
            sys.exit(2)
        raise
    p = study.get("protocolSection", {})
    ident, status, design = p.get("identificationModule", {}), p.get("statusModule", {}), p.get("designModule", {})
    print(json.dumps({
        "nct_id": ident.get("nctId"),
        "title": ident.get("briefTitle"),
        "official_title": ident.get("officialTitle"),
        "status": status.get("overallStatus"),
        "start_date": status.get("startDateStruct", {}).get("date"),
        "completion_date": status.get("completionDateStruct", {}).get("date"),
        "study_type": design.get("studyType"),
        "phases": design.get("phases", []),
        "enrollment": design.get("enrollmentInfo", {}).get("count"),
        "conditions": p.get("conditionsModule", {}).get("conditions", []),
        "interventions": [{"type": i.get("type"), "name": i.get("name")} for i in p.get("armsInterventionsModule", {}).get("interventions", [])],
        "sponsor": p.get("sponsorCollaboratorsModule", {}).get("leadSponsor", {}).get("name"),
        "brief_summary": p.get("descriptionModule", {}).get("briefSummary"),
        "eligibility": p.get("eligibilityModule", {}).get("eligibilityCriteria"),
        "primary_outcomes": [o.get("measure") for o in p.get("outcomesModule", {}).get("primaryOutcomes", [])],
        "locations": [", ".join(x for x in (l.get("facility"), l.get("city"), l.get("country")) if x) for l in p.get("contactsLocationsModule", {}).get("locations", [])],
    }, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"ClinicalTrials.gov answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach ClinicalTrials.gov: {e.reason}")
