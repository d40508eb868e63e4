#!/usr/bin/env python3
"""Properties of a PubChem compound.

Usage: compound_properties.py NAME_OR_CID [--smiles]
"""
import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

PUG = "https://pubchem.ncbi.nlm.nih.gov/rest/pug"
PROPERTIES = "MolecularFormula,MolecularWeight,CanonicalSMILES,IsomericSMILES,InChIKey,IUPACName,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount,RotatableBondCount"


def namespace(compound, smiles):
    if smiles:
        return "smiles", compound
    return ("cid", compound) if compound.isdigit() else ("name", compound)


def main():
    p = argparse.ArgumentParser(description="Properties of a PubChem compound")
    p.add_argument("compound")
    p.add_argument("--smiles", action="store_true", help="COMPOUND is a SMILES string")
    a = p.parse_args()
    ns, value = namespace(a.compound, a.smiles)
    url = f"{PUG}/compound/{ns}/property/{PROPERTIES}/JSON"
    data = urllib.parse.urlencode({ns: value}).encode()
    with urllib.request.urlopen(url, data=data, timeout=30) as r:
        table = json.load(r)["PropertyTable"]["Properties"]
    print(json.dumps({"query": a.compound, "compounds": table}, indent=2))


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
