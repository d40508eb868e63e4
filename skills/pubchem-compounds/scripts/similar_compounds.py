#!/usr/bin/env python3
"""Compounds similar to one compound (PubChem 2D similarity).

Usage: similar_compounds.py NAME_OR_CID [--smiles] [--threshold 90] [--limit 20]
"""
import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

PUG = "https://pubchem.ncbi.nlm.nih.gov/rest/pug"


def get_json(url):
    with urllib.request.urlopen(url, timeout=60) as r:
        return json.load(r)


def main():
    p = argparse.ArgumentParser(description="Compounds similar to one compound")
    p.add_argument("compound")
    p.add_argument("--smiles", action="store_true", help="COMPOUND is a SMILES string")
    p.add_argument("--threshold", type=int, default=90)
    p.add_argument("--limit", type=int, default=20)
    a = p.parse_args()
    if a.smiles:
        smiles = a.compound
    else:
        ns = "cid" if a.compound.isdigit() else "name"
        props = get_json(f"{PUG}/compound/{ns}/{urllib.parse.quote(a.compound, safe='')}/property/CanonicalSMILES/JSON")
        smiles = props["PropertyTable"]["Properties"][0]["CanonicalSMILES"]
    query = urllib.parse.urlencode({"Threshold": a.threshold, "MaxRecords": a.limit})
    cids = get_json(f"{PUG}/compound/fastsimilarity_2d/smiles/{urllib.parse.quote(smiles, safe='')}/cids/JSON?{query}")["IdentifierList"]["CID"][: a.limit]
    similar = []
    if cids:
        ids = ",".join(str(c) for c in cids)
        similar = get_json(f"{PUG}/compound/cid/{ids}/property/MolecularFormula,MolecularWeight,CanonicalSMILES,IUPACName/JSON")["PropertyTable"]["Properties"]
    print(json.dumps({"query": a.compound, "query_smiles": smiles, "threshold": a.threshold, "similar": similar}, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        body = e.read().decode(errors="replace")
        try:
            fault = json.loads(body)["Fault"]
            message = f"{fault.get('Code')}: {fault.get('Message')}"
        except (ValueError, KeyError):
            message = body[:500]
        print(f"PubChem answered HTTP {e.code}: {message}", file=sys.stderr)
        sys.exit(2 if e.code == 404 else 1)
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach PubChem: {e.reason}")
