#!/usr/bin/env python3
"""Search public protocols on protocols.io.

Usage: search_protocols.py KEYWORDS [--limit N] [--token TOKEN]
"""
import argparse
import datetime
import json
import sys
import urllib.error

from _protocols import get_json, token


def main():
    p = argparse.ArgumentParser(description="Search public protocols")
    p.add_argument("keywords")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--token")
    a = p.parse_args()
    found = get_json("/protocols", token(a.token), filter="public", key=a.keywords, page_size=max(1, min(a.limit, 100)), page_id=1)
    items = found.get("items", [])[: a.limit]
    print(json.dumps({"keywords": a.keywords, "total": found.get("total", len(items)), "protocols": [
        {
            "id": x.get("id"),
            "title": x.get("title"),
            "doi": x.get("doi"),
            "uri": x.get("uri"),
            "authors": [u.get("name") for u in x.get("authors", [])],
            "published": datetime.datetime.fromtimestamp(x["published_on"], datetime.timezone.utc).date().isoformat() if x.get("published_on") else None,
            "steps": x.get("number_of_steps"),
        }
        for x in items
    ]}, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"protocols.io answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach protocols.io: {e.reason}")
