#!/usr/bin/env python3
"""GWAS Catalog associations of a variant.

Usage: variant_associations.py RSID [--limit N]
"""
import argparse
import json
import re
import sys
import urllib.error

from _gwas import get_json, strongest_first, summary


def main():
    p = argparse.ArgumentParser(description="GWAS Catalog associations of a variant")
    p.add_argument("rsid")
    p.add_argument("--limit", type=int, default=50)
    a = p.parse_args()
    if not re.fullmatch(r"rs\d+", a.rsid):
        sys.exit(f"a variant is an rsID such as rs7903146, not {a.rsid}")
    try:
        found = get_json(f"/singleNucleotidePolymorphisms/{a.rsid}/associations").get("_embedded", {}).get("associations", [])
    except urllib.error.HTTPError as e:
        if e.code != 404:
            raise
        found = []
    result = strongest_first([summary(x) for x in found])[: a.limit]
    print(json.dumps({"rs_id": a.rsid, "associations": result}, indent=2))
    if not found:
        sys.exit(2)


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"the GWAS Catalog answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach the GWAS Catalog: {e.reason}")
