#!/usr/bin/env python3
"""Summarise one NCBI Gene record.

Usage: gene_summary.py GENE_ID_OR_SYMBOL [--organism NAME]
"""
import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

EUTILS = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils"


def eutils(tool, **params):
    params["retmode"] = "json"
    for env, name in (("NCBI_API_KEY", "api_key"), ("NCBI_EMAIL", "email")):
        if os.environ.get(env):
            params[name] = os.environ[env]
    url = f"{EUTILS}/{tool}.fcgi?{urllib.parse.urlencode(params)}"
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def main():
    p = argparse.ArgumentParser(description="Summarise one NCBI Gene record")
    p.add_argument("gene")
    p.add_argument("--organism", default="human")
    a = p.parse_args()
    gene_id = a.gene
    if not gene_id.isdigit():
        found = eutils("esearch", db="gene", term=f"{a.gene}[sym] AND {a.organism}[orgn]")["esearchresult"]
        ids = found.get("idlist", [])
        # E-utilities drops a phrase it does not know and runs the rest of the query: the organism
        # alone would then match every gene of it.
        if not ids or found.get("errorlist", {}).get("phrasesnotfound"):
            sys.exit(f"no {a.organism} gene has the symbol {a.gene}")
        gene_id = ids[0]
    result = eutils("esummary", db="gene", id=gene_id)["result"]
    g = result.get(gene_id)
    if not g or "error" in g:
        sys.exit(f"no gene with id {gene_id}")
    print(json.dumps({
        "gene_id": gene_id,
        "symbol": g.get("name"),
        "name": g.get("description"),
        "aliases": [s.strip() for s in (g.get("otheraliases") or "").split(",") if s.strip()],
        "organism": (g.get("organism") or {}).get("scientificname"),
        "tax_id": (g.get("organism") or {}).get("taxid"),
        "chromosome": g.get("chromosome"),
        "map_location": g.get("maplocation"),
        "genomic_ranges": [
            {"accession": r.get("chraccver"), "start": r.get("chrstart"), "stop": r.get("chrstop")}
            for r in g.get("genomicinfo", [])
        ],
        "mim": g.get("mim", []),
        "summary": g.get("summary") or None,
    }, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"E-utilities answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach E-utilities: {e.reason}")
