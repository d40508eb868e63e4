#!/usr/bin/env python3
"""Confidence of the AlphaFold DB model(s) of a UniProt accession.

Usage: model_confidence.py UNIPROT_ACCESSION [--min-length N]
"""
import argparse
import json
import sys
import urllib.error
import urllib.request

AFDB = "https://alphafold.ebi.ac.uk"
BANDS = (("very_low", 0, 50), ("low", 50, 70), ("confident", 70, 90), ("very_high", 90, 101))


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def low_regions(residues, scores, min_length):
    regions, start, last = [], None, None
    for n, s in zip(residues, scores):
        if s < 50:
            if start is None:
                start = n
            last = n
        else:
            if start is not None and last - start + 1 >= min_length:
                regions.append([start, last])
            start = None
    if start is not None and last - start + 1 >= min_length:
        regions.append([start, last])
    return regions


def main():
    p = argparse.ArgumentParser(description="Confidence of AlphaFold DB models")
    p.add_argument("accession")
    p.add_argument("--min-length", type=int, default=5)
    a = p.parse_args()
    try:
        records = get_json(f"{AFDB}/api/prediction/{a.accession}")
    except urllib.error.HTTPError as e:
        if e.code in (400, 404, 422):
            print(f"no AlphaFold DB model for {a.accession}", file=sys.stderr)
            sys.exit(2)
        raise
    models = []
    for rec in records:
        entry, version = rec.get("entryId"), rec.get("latestVersion")
        # The record names its confidence file (plddtDocUrl); older records do not.
        conf = get_json(rec.get("plddtDocUrl") or f"{AFDB}/files/{entry}-confidence_v{version}.json")
        scores, residues = conf["confidenceScore"], conf["residueNumber"]
        n = len(scores) or 1
        models.append({
            "entry_id": entry,
            "version": version,
            "description": rec.get("uniprotDescription"),
            "organism": rec.get("organismScientificName"),
            "sequence_length": len(scores),
            "mean_plddt": round(sum(scores) / n, 2),
            "global_metric_value": rec.get("globalMetricValue"),
            "fractions": {name: round(sum(1 for s in scores if lo <= s < hi) / n, 3) for name, lo, hi in BANDS},
            "record_fractions": {
                "very_low": rec.get("fractionPlddtVeryLow"),
                "low": rec.get("fractionPlddtLow"),
                "confident": rec.get("fractionPlddtConfident"),
                "very_high": rec.get("fractionPlddtVeryHigh"),
            },
            "low_confidence_regions": low_regions(residues, scores, a.min_length),
        })
    print(json.dumps({"accession": a.accession, "models": models}, indent=2))
    if not models:
        sys.exit(2)


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"AlphaFold DB answered HTTP {e.code}: {e.read().decode(errors='replace')[:500]}")
    except urllib.error.URLError as e:
        sys.exit(f"cannot reach AlphaFold DB: {e.reason}")
