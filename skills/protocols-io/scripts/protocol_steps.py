#!/usr/bin/env python3
"""The steps of one protocols.io protocol, as text.

Usage: protocol_steps.py PROTOCOL_ID [--token TOKEN]
"""
import argparse
import html
import json
import re
import sys
import urllib.error

from _protocols import get_json, token


def text_of(value):
    """Plain text of a step: HTML, or the editor's JSON (blocks with a text field)."""
    if not value:
        return ""
    if isinstance(value, str):
        try:
            doc = json.loads(value)
        except ValueError:
            return html.unescape(re.sub(r"<[^>]+>", " ", value)).strip()
        value = doc
    if isinstance(value, dict):
        blocks = value.get("blocks")
        if isinstance(blocks, list):
            return "\n".join(b.get("text", "") for b in blocks if isinstance(b, dict)).strip()
        return " ".join(text_of(v) for v in value.values() if isinstance(v, (str, dict, list))).strip()
    if isinstance(value, list):
        return "\n".join(text_of(v) for v in value).strip()
    return str(value)


def main():
    p = argparse.ArgumentParser(description="Steps of one protocol")
    p.add_argument("protocol_id")
    p.add_argument("--token")
    a = p.parse_args()
    tok = token(a.token)
    try:
        protocol = get_json(f"/protocols/{a.protocol_id}", tok)
        steps = get_json(f"/protocols/{a.protocol_id}/steps", tok)
    except urllib.error.HTTPError as e:
        if e.code in (403, 404):
            print(f"protocol {a.protocol_id} is not there or not public", file=sys.stderr)
            sys.exit(2)
        raise
    record = protocol.get("payload") or protocol.get("protocol") or protocol
    items = steps.get("payload") or steps.get("steps") or []
    print(json.dumps({
        "id": record.get("id"),
        "title": record.get("title"),
        "steps": [{"number": i + 1, "section": section_of(s), "text": step_text(s)} for i, s in enumerate(items)],
    }, indent=2))


def step_text(step):
    """API v3 steps: the text is in components[].source.description; v4: in step (editor JSON)."""
    if step.get("step"):
        return text_of(step["step"])
    parts = [text_of((c.get("source") or {}).get("description")) for c in step.get("components", [])]
    return "\n".join(p for p in parts if p)


def section_of(step):
    if step.get("section"):
        return text_of(step["section"]) or None
    for c in step.get("components", []):
        source = c.get("source") or {}
        if "description" not in source and source.get("title"):
            return text_of(source["title"]) or None
    return None


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"protocols.io answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach protocols.io: {e.reason}")
