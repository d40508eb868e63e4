#!/usr/bin/env python3
"""Drugs paired with a gene in PharmGKB.

Usage: gene_drug_pairs.py GENE
"""
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

API = "https://api.pharmgkb.org/v1"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gene_drug_pairs.py GENE")
    gene = sys.argv[1]
    try:
        with urllib.request.urlopen(f"{API}/geneDrugPair?{urllib.parse.urlencode({'gene': gene})}", timeout=30) as r:
            pairs = json.load(r)
    except urllib.error.HTTPError as e:
        if e.code != 404:
            raise
        pairs = []
    if isinstance(pairs, dict):
        pairs = pairs.get("data", [])
    print(json.dumps({"gene": gene, "pairs": [
        {
            "drug": p.get("drug"),
            "sources": p.get("sources", []),
            "cpic_level": p.get("cpicLevel"),
            "evidence_level": p.get("evidenceLevel"),
            "has_guideline": p.get("hasGuideline"),
            "guideline_url": p.get("guidelineUrl"),
        }
        for p in pairs
    ]}, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"PharmGKB answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach PharmGKB: {e.reason}")
