"""Shared by the protocols.io scripts: authenticated requests."""
import json
import os
import sys
import urllib.parse
import urllib.request

API = "https://www.protocols.io/api/v3"


def token(given):
    t = given or os.environ.get("PROTOCOLS_IO_TOKEN")
    if not t:
        sys.exit("a protocols.io token is needed: --token TOKEN or PROTOCOLS_IO_TOKEN")
    return t


def get_json(path, tok, **params):
    query = f"?{urllib.parse.urlencode(params)}" if params else ""
    req = urllib.request.Request(f"{API}{path}{query}", headers={"Authorization": f"Bearer {tok}"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)
