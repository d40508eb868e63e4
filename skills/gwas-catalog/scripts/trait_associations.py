#!/usr/bin/env python3
"""GWAS Catalog associations of a trait.

Usage: trait_associations.py TRAIT [--limit N]
"""
import argparse
import json
import re
import sys
import urllib.error

from _gwas import get_json, strongest_first, summary


def main():
    p = argparse.ArgumentParser(description="GWAS Catalog associations of a trait")
    p.add_argument("trait")
    p.add_argument("--limit", type=int, default=50)
    a = p.parse_args()
    if re.fullmatch(r"[A-Za-z]+_\d+", a.trait):
        traits = [get_json(f"/efoTraits/{a.trait}")]
    else:
        traits = get_json("/efoTraits/search/findByEfoTrait", trait=a.trait).get("_embedded", {}).get("efoTraits", [])
    out = []
    for t in traits:
        found = get_json(f"/efoTraits/{t['shortForm']}/associations").get("_embedded", {}).get("associations", [])
        out += [dict(summary(x), trait=t.get("trait")) for x in found]
    result = strongest_first(out)[: a.limit]
    print(json.dumps({"query": a.trait, "traits": [{"trait": t.get("trait"), "short_form": t.get("shortForm"), "uri": t.get("uri")} for t in traits], "associations": result}, indent=2))
    if not traits:
        sys.exit(2)


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        if e.code == 404:
            print(json.dumps({"query": sys.argv[1] if len(sys.argv) > 1 else None, "traits": [], "associations": []}))
            sys.exit(2)
        sys.exit(f"the GWAS Catalog answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach the GWAS Catalog: {e.reason}")
