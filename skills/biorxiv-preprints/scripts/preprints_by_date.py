#!/usr/bin/env python3
"""Preprints posted in a date range.

Usage: preprints_by_date.py FROM TO [--category NAME] [--server biorxiv|medrxiv] [--limit N]
"""
import argparse
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

API = "https://api.biorxiv.org"


def main():
    p = argparse.ArgumentParser(description="Preprints posted in a date range")
    p.add_argument("start")
    p.add_argument("end")
    p.add_argument("--category")
    p.add_argument("--server", default="biorxiv", choices=["biorxiv", "medrxiv"])
    p.add_argument("--limit", type=int, default=100)
    a = p.parse_args()
    for d in (a.start, a.end):
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", d):
            sys.exit(f"dates are YYYY-MM-DD, not {d}")
    query = f"?{urllib.parse.urlencode({'category': a.category})}" if a.category else ""
    cursor, total, papers = 0, None, []
    while len(papers) < a.limit:
        url = f"{API}/details/{a.server}/{a.start}/{a.end}/{cursor}{query}"
        with urllib.request.urlopen(url, timeout=30) as r:
            page = json.load(r)
        message = (page.get("messages") or [{}])[0]
        if message.get("status") != "ok":
            if not papers:
                print(f"the preprint server says: {message.get('status')}", file=sys.stderr)
            break
        if total is None:
            total = int(message.get("total", 0))
        batch = page.get("collection", [])
        papers += batch
        cursor += len(batch)
        if not batch or cursor >= total:
            break
    print(json.dumps({"server": a.server, "interval": f"{a.start}/{a.end}", "category": a.category, "total": total or 0, "preprints": [
        {
            "doi": x.get("doi"),
            "title": x.get("title"),
            "authors": x.get("authors"),
            "date": x.get("date"),
            "version": x.get("version"),
            "category": x.get("category"),
            "type": x.get("type"),
            "published": None if x.get("published") in (None, "", "NA") else x.get("published"),
            "abstract": x.get("abstract"),
        }
        for x in papers[: a.limit]
    ]}, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"the preprint server answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach the preprint server: {e.reason}")
