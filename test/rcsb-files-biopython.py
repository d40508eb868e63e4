"""Reads two structure files with Biopython and says whether they hold the same atoms.

Usage: rcsb-files-biopython.py FORMAT_A PATH_A FORMAT_B PATH_B (format: pdb | cif).
Prints JSON: atom counts, model counts, chain ids, and the first differing atom if any.
"""
import json
import sys
import warnings

from Bio.PDB import MMCIFParser, PDBParser

warnings.simplefilter("ignore")


def atoms(fmt, path):
    parser = PDBParser(QUIET=True) if fmt == "pdb" else MMCIFParser(QUIET=True)
    structure = parser.get_structure("x", path)
    out = []
    for mi, model in enumerate(structure):
        for chain in model:
            for residue in chain:
                for atom in residue.get_unpacked_list():
                    x, y, z = (round(float(v), 3) for v in atom.coord)
                    out.append([mi, chain.id, residue.id[1], residue.id[2], residue.resname, atom.get_id(),
                                atom.get_altloc(), x, y, z, round(float(atom.occupancy), 2), round(float(atom.bfactor), 2)])
    models = len(structure)
    chains = sorted({c.id for m in structure for c in m})
    return out, models, chains


a, ma, ca = atoms(sys.argv[1], sys.argv[2])
b, mb, cb = atoms(sys.argv[3], sys.argv[4])
diff = next((i for i, (p, q) in enumerate(zip(a, b)) if p != q), None)
print(json.dumps({"a": len(a), "b": len(b), "modelsA": ma, "modelsB": mb, "chainsA": ca, "chainsB": cb,
                  "firstDiff": None if diff is None else [a[diff], b[diff]]}))
