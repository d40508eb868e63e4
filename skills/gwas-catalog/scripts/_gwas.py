"""Shared by the GWAS Catalog scripts: requests and the association summary."""
import json
import urllib.parse
import urllib.request

API = "https://www.ebi.ac.uk/gwas/rest/api"


def get_json(path, **params):
    query = f"?{urllib.parse.urlencode(params)}" if params else ""
    req = urllib.request.Request(f"{API}{path}{query}", headers={"Accept": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def p_value(a):
    m, e = a.get("pvalueMantissa"), a.get("pvalueExponent")
    if m is None or e is None:
        return None, None
    return float(f"{m}e{e}"), f"{m} x 10^{e}"


def summary(a):
    value, text = p_value(a)
    alleles = [r.get("riskAlleleName") for locus in a.get("loci", []) for r in locus.get("strongestRiskAlleles", [])]
    genes = [g.get("geneName") for locus in a.get("loci", []) for g in locus.get("authorReportedGenes", [])]
    return {
        "rs_id": a.get("rsId") or (alleles[0].split("-")[0] if alleles else None),
        "risk_allele": alleles[0] if alleles else None,
        "risk_frequency": a.get("riskFrequency"),
        "p_value": value,
        "p_value_text": text,
        "p_value_description": a.get("pvalueDescription"),
        "or_per_copy": a.get("orPerCopyNum"),
        "beta": a.get("betaNum"),
        "beta_unit": a.get("betaUnit"),
        "beta_direction": a.get("betaDirection"),
        "reported_genes": [g for g in genes if g],
        "traits": a.get("efoTrait") or a.get("mappedLabel"),
        "study_id": a.get("studyId"),
    }


def strongest_first(associations):
    # A p-value too small for a float reads 0.0 and sorts first, as it should.
    return sorted(associations, key=lambda s: (s["p_value"] is None, s["p_value"] or 0.0))
