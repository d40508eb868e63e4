/** Archive paths and the mmCIF entry writer shared by the demo and the benchmark generator. */

/** The divided-folder path of an entry, as the archive lays it out: `hh/4hhb.cif.gz`. */
export function divided(id: string): string {
  const lc = id.toLowerCase();
  return `${lc.slice(-3, -1)}/${lc}.cif.gz`;
}

/** The structure-factor path in the archive's own naming: `structure_factors/hh/r4hhbsf.ent.gz`. */
export function sfPath(id: string): string {
  const lc = id.toLowerCase();
  return `structure_factors/${lc.slice(-3, -1)}/r${lc}sf.ent.gz`;
}

export interface EntryModel {
  id: string;
  atoms: Array<{ compId: string }>;
}

export function componentIdsOf(model: EntryModel): Set<string> {
  return new Set(model.atoms.map((a) => a.compId));
}
