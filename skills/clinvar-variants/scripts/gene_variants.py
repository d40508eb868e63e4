#!/usr/bin/env python3
"""ClinVar variants of a gene.

Usage: gene_variants.py GENE [--significance TEXT] [--limit N]
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
    data = urllib.parse.urlencode(params).encode()
    # POST: a long id list does not fit in a URL.
    with urllib.request.urlopen(f"{EUTILS}/{tool}.fcgi", data=data, timeout=60) as r:
        return json.load(r)


def location(v, assembly):
    for loc in v.get("variation_loc", []):
        if loc.get("assembly_name") == assembly:
            return {"chr": loc.get("chr"), "start": loc.get("start"), "stop": loc.get("stop"), "ref": loc.get("ref") or None, "alt": loc.get("alt") or None}
    return None


def main():
    p = argparse.ArgumentParser(description="ClinVar variants of a gene")
    p.add_argument("gene")
    p.add_argument("--significance")
    p.add_argument("--limit", type=int, default=50)
    a = p.parse_args()
    found = eutils("esearch", db="clinvar", term=f"{a.gene}[gene]", retmax=10000)["esearchresult"]
    ids = found.get("idlist", [])
    variants = []
    for start in range(0, len(ids), 200):
        result = eutils("esummary", db="clinvar", id=",".join(ids[start:start + 200]))["result"]
        for uid in result.get("uids", []):
            r = result[uid]
            germline = r.get("germline_classification") or {}
            significance = germline.get("description") or ""
            if a.significance and a.significance.lower() not in significance.lower():
                continue
            vs = (r.get("variation_set") or [{}])[0]
            dbsnp = [x.get("db_id") for x in vs.get("variation_xrefs", []) if x.get("db_source") == "dbSNP"]
            variants.append({
                "uid": uid,
                "accession": r.get("accession"),
                "title": r.get("title"),
                "variant_type": r.get("obj_type"),
                "classification": significance or None,
                "review_status": germline.get("review_status") or None,
                "last_evaluated": germline.get("last_evaluated") or None,
                "conditions": [t.get("trait_name") for t in germline.get("trait_set", [])],
                "dbsnp": f"rs{dbsnp[0]}" if dbsnp else None,
                "grch38": location(vs, "GRCh38"),
                "grch37": location(vs, "GRCh37"),
            })
            if len(variants) >= a.limit:
                break
        if len(variants) >= a.limit:
            break
    print(json.dumps({"gene": a.gene, "count": int(found.get("count", 0)), "variants": variants}, indent=2))


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"E-utilities answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach E-utilities: {e.reason}")
