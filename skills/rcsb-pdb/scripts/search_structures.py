#!/usr/bin/env python3
"""Full-text search of the PDB.

Usage: search_structures.py TEXT [--limit N]
"""
import argparse
import json
import sys
import urllib.error
import urllib.request

SEARCH = "https://search.rcsb.org/rcsbsearch/v2/query"


def main():
    p = argparse.ArgumentParser(description="Full-text search of the PDB")
    p.add_argument("text")
    p.add_argument("--limit", type=int, default=10)
    a = p.parse_args()
    body = {
        "query": {"type": "terminal", "service": "full_text", "parameters": {"value": a.text}},
        "return_type": "entry",
        "request_options": {"paginate": {"start": 0, "rows": max(1, min(a.limit, 10000))}},
    }
    req = urllib.request.Request(SEARCH, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        raw = r.read()
    # No hits: 204 and an empty body.
    result = json.loads(raw) if raw else {"total_count": 0, "result_set": []}
    print(json.dumps({
        "query": a.text,
        "total_count": result.get("total_count", 0),
        "entries": [{"id": x.get("identifier"), "score": x.get("score")} for x in result.get("result_set", [])],
    }, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"the RCSB Search API answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach the RCSB Search API: {e.reason}")
