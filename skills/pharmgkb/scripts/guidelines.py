#!/usr/bin/env python3
"""Dosing guidelines that name a gene, in PharmGKB.

Usage: guidelines.py GENE [--drug NAME]
"""
import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

API = "https://api.pharmgkb.org/v1"


def main():
    p = argparse.ArgumentParser(description="Dosing guidelines of a gene")
    p.add_argument("gene")
    p.add_argument("--drug")
    a = p.parse_args()
    try:
        with urllib.request.urlopen(f"{API}/guideline?{urllib.parse.urlencode({'gene': a.gene})}", timeout=30) as r:
            found = json.load(r)
    except urllib.error.HTTPError as e:
        if e.code != 404:
            raise
        found = []
    if isinstance(found, dict):
        found = found.get("data", [])
    out = []
    for g in found:
        if a.drug and a.drug.lower() not in [d.lower() for d in g.get("drugs", [])]:
            continue
        out.append({
            "id": g.get("id"),
            "name": g.get("name"),
            "source": g.get("source"),
            "genes": g.get("genes", []),
            "drugs": g.get("drugs", []),
            "strength": g.get("recommendationLevel"),
            "summary": g.get("summary"),
            "recommendations": [
                {"phenotypes": r.get("phenotypes"), "recommendation": r.get("recommendation"), "classification": r.get("classification")}
                for r in g.get("recommendations", [])
            ],
        })
    print(json.dumps({"gene": a.gene, "drug": a.drug, "guidelines": out}, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"PharmGKB answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach PharmGKB: {e.reason}")
