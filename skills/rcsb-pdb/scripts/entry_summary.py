#!/usr/bin/env python3
"""Summary of a PDB entry.

Usage: entry_summary.py PDB_ID
"""
import json
import re
import sys
import urllib.error
import urllib.request

DATA = "https://data.rcsb.org/rest/v1/core"


def get_json(path):
    with urllib.request.urlopen(f"{DATA}/{path}", timeout=30) as r:
        return json.load(r)


def main():
    if len(sys.argv) != 2 or not re.fullmatch(r"[0-9][A-Za-z0-9]{3}", sys.argv[1]):
        sys.exit("usage: entry_summary.py PDB_ID (four characters, e.g. 4HHB)")
    pdb_id = sys.argv[1].upper()
    try:
        entry = get_json(f"entry/{pdb_id}")
    except urllib.error.HTTPError as e:
        if e.code == 404:
            print(f"no PDB entry {pdb_id}", file=sys.stderr)
            sys.exit(2)
        raise
    info = entry.get("rcsb_entry_info", {})
    accession = entry.get("rcsb_accession_info", {})
    entities = []
    for entity_id in entry.get("rcsb_entry_container_identifiers", {}).get("polymer_entity_ids", []):
        e = get_json(f"polymer_entity/{pdb_id}/{entity_id}")
        poly = e.get("entity_poly", {})
        entities.append({
            "entity_id": entity_id,
            "description": e.get("rcsb_polymer_entity", {}).get("pdbx_description"),
            "chains": e.get("rcsb_polymer_entity_container_identifiers", {}).get("auth_asym_ids", []),
            "type": poly.get("rcsb_entity_polymer_type"),
            "length": poly.get("rcsb_sample_sequence_length"),
            "organisms": [o.get("ncbi_scientific_name") for o in e.get("rcsb_entity_source_organism", [])],
        })
    print(json.dumps({
        "id": pdb_id,
        "title": entry.get("struct", {}).get("title"),
        "keywords": entry.get("struct_keywords", {}).get("pdbx_keywords"),
        "method": [x.get("method") for x in entry.get("exptl", [])],
        "resolution": (info.get("resolution_combined") or [None])[0],
        "deposited": accession.get("deposit_date"),
        "released": accession.get("initial_release_date"),
        "revised": accession.get("revision_date"),
        "atom_count": info.get("deposited_atom_count"),
        "polymer_entity_count": info.get("polymer_entity_count"),
        "nonpolymer_entity_count": info.get("nonpolymer_entity_count"),
        "polymer_entities": entities,
    }, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"the RCSB Data API answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach the RCSB Data API: {e.reason}")
