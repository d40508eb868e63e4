#!/usr/bin/env python3
"""Search NCBI Gene.

Usage: search_genes.py TERM [--organism NAME|any] [--limit N]
"""
import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

EUTILS = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils"


def eutils(tool, **params):
    params["retmode"] = "json"
    for env, name in (("NCBI_API_KEY", "api_key"), ("NCBI_EMAIL", "email")):
        if os.environ.get(env):
            params[name] = os.environ[env]
    url = f"{EUTILS}/{tool}.fcgi?{urllib.parse.urlencode(params)}"
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def main():
    p = argparse.ArgumentParser(description="Search NCBI Gene")
    p.add_argument("term")
    p.add_argument("--organism", default="human")
    p.add_argument("--limit", type=int, default=20)
    a = p.parse_args()
    term = a.term if a.organism == "any" else f"({a.term}) AND {a.organism}[orgn]"
    found = eutils("esearch", db="gene", term=term, retmax=max(1, min(a.limit, 500)))["esearchresult"]
    ids = found.get("idlist", [])
    # E-utilities drops the phrases it does not know and runs the rest: say so, and match nothing
    # rather than every gene of the organism.
    not_found = found.get("errorlist", {}).get("phrasesnotfound", [])
    if not_found:
        ids = []
    genes = []
    if ids:
        result = eutils("esummary", db="gene", id=",".join(ids))["result"]
        for uid in result.get("uids", []):
            g = result[uid]
            genes.append({
                "gene_id": uid,
                "symbol": g.get("name"),
                "name": g.get("description"),
                "organism": (g.get("organism") or {}).get("scientificname"),
                "chromosome": g.get("chromosome"),
                "map_location": g.get("maplocation"),
            })
    count = 0 if not_found else int(found.get("count", 0))
    print(json.dumps({"query": term, "count": count, "not_found": not_found, "genes": genes}, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"E-utilities answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach E-utilities: {e.reason}")
