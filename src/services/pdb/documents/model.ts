import type { Entry } from '../../../core/mmcif/block-reader.js';

/** What the Data API calls an entity's kind. */
export type EntityKind = 'polymer' | 'non-polymer' | 'branched' | 'water' | 'macrolide';

export interface EntityInfo {
  id: string;
  kind: EntityKind;
  row: number;
  /** Daltons, as the file gives it. */
  formulaWeight: number | undefined;
  description: string | undefined;
  molecules: number | undefined;
  /** label_asym_ids of its instances, in file order. */
  asyms: string[];
  /** entity_poly.type for polymers (`polypeptide(L)`, `polydeoxyribonucleotide`, ...). */
  polyType?: string;
  /** Length of the sample sequence (entity_poly_seq rows). */
  seqLength: number;
  /** Distinct monomers of the sequence, sorted. */
  monomers: string[];
  /** The non-polymer's chemical component. */
  compId?: string;
}

export interface AsymInfo {
  id: string;
  entityId: string;
  /** The author chain id (auth_asym_id), where the file gives one. */
  authId: string | undefined;
  /** Atoms of the first model. */
  atoms: number;
  hydrogens: number;
  /** Distinct label_seq_ids with atoms (polymers), in the first model. */
  modeledResidues: number;
  /** auth_seq_id of the first atom (non-polymer instances are one residue). */
  firstAuthSeq: string | undefined;
  /** auth_seq_ids of the polymer's sequence positions in order ('?' where unmodeled). */
  authSeqMap: string[];
}

export interface StructureModel {
  entry: Entry;
  id: string;
  entities: Map<string, EntityInfo>;
  asyms: Map<string, AsymInfo>;
  modelIds: number[];
  /** Atoms in the first model (what the Data API counts as deposited for one model). */
  atomCount: number;
  /** Atom records in the file, every model. */
  atomRows: number;
}

const KIND: Record<string, EntityKind> = {
  polymer: 'polymer',
  'non-polymer': 'non-polymer',
  branched: 'branched',
  water: 'water',
  macrolide: 'macrolide',
};

/** The entities, with their polymer type, sequence length and monomers, and non-polymer component. */
function entitiesFrom(entry: Entry): Map<string, EntityInfo> {
  const entities = new Map<string, EntityInfo>();
  const ent = entry.table('entity');
  for (let r = 0; r < ent.rows; r++) {
    const eid = ent.str('id', r);
    if (!eid) continue;
    entities.set(eid, {
      id: eid,
      kind: KIND[(ent.str('type', r) ?? '').toLowerCase()] ?? 'polymer',
      row: r,
      formulaWeight: ent.num('formula_weight', r),
      description: ent.str('pdbx_description', r),
      molecules: ent.int('pdbx_number_of_molecules', r),
      asyms: [],
      seqLength: 0,
      monomers: [],
    });
  }
  const poly = entry.table('entity_poly');
  for (let r = 0; r < poly.rows; r++) {
    const e = entities.get(poly.str('entity_id', r) ?? '');
    if (e) e.polyType = poly.str('type', r);
  }
  const seq = entry.table('entity_poly_seq');
  const mons = new Map<string, Set<string>>();
  for (let r = 0; r < seq.rows; r++) {
    const eid = seq.str('entity_id', r) ?? '';
    const e = entities.get(eid);
    if (!e) continue;
    e.seqLength++;
    let set = mons.get(eid);
    if (!set) mons.set(eid, (set = new Set()));
    const m = seq.str('mon_id', r);
    if (m) set.add(m);
  }
  for (const [eid, set] of mons) {
    const e = entities.get(eid);
    if (e) e.monomers = [...set].sort();
  }
  const nonpoly = entry.table('pdbx_entity_nonpoly');
  for (let r = 0; r < nonpoly.rows; r++) {
    const e = entities.get(nonpoly.str('entity_id', r) ?? '');
    if (e) e.compId = nonpoly.str('comp_id', r);
  }
  return entities;
}

/** The instances struct_asym lists, each added to its entity. */
function asymsFrom(entry: Entry, entities: Map<string, EntityInfo>): Map<string, AsymInfo> {
  const asyms = new Map<string, AsymInfo>();
  const sa = entry.table('struct_asym');
  for (let r = 0; r < sa.rows; r++) {
    const aid = sa.str('id', r);
    const eid = sa.str('entity_id', r);
    if (!aid || !eid) continue;
    asyms.set(aid, { id: aid, entityId: eid, authId: undefined, atoms: 0, hydrogens: 0, modeledResidues: 0, firstAuthSeq: undefined, authSeqMap: [] });
    entities.get(eid)?.asyms.push(aid);
  }
  return asyms;
}

/**
 * The atoms of the first model, counted per instance (atoms, hydrogens, modeled residues, first
 * author ids); instances the file does not list are added. Returns the model numbers and the count.
 */
function readAtoms(entry: Entry, entities: Map<string, EntityInfo>, asyms: Map<string, AsymInfo>): { models: Set<number>; atomCount: number; rows: number } {
  const atoms = entry.table('atom_site');
  const models = new Set<number>();
  let firstModel: number | undefined;
  let atomCount = 0;
  const seen = new Map<string, Set<string>>();
  // Columns read directly: this loop runs once per atom of the archive.
  const col = (item: string) => atoms.column(item);
  const modelCol = col('pdbx_PDB_model_num');
  const asymCol = col('label_asym_id');
  const entityCol = col('label_entity_id');
  const typeCol = col('type_symbol');
  const authAsymCol = col('auth_asym_id');
  const authSeqCol = col('auth_seq_id');
  const seqCol = col('label_seq_id');
  const present = (f: typeof modelCol, r: number): string | undefined => (f && f.valueKind(r) === 0 ? f.str(r) : undefined);
  // Most rows repeat the row before in chain and residue, and name one of a few elements: those
  // are told by comparing the file's tokens in place (areValuesEqual) rather than by a string per
  // atom, with the same outcome.
  const same = (f: typeof modelCol, r: number, earlier: number) => earlier >= 0 && f !== undefined && f.valueKind(r) === 0 && f.areValuesEqual(r, earlier);
  const elements: { row: number; hydrogen: boolean }[] = [];
  const hydrogen = (r: number): boolean => {
    if (!typeCol) return false;
    for (const e of elements) if (same(typeCol, r, e.row)) return e.hydrogen;
    const el = present(typeCol, r);
    const h = el === 'H' || el === 'D';
    if (el !== undefined && elements.length < 8) elements.push({ row: r, hydrogen: h });
    return h;
  };
  let current: AsymInfo | undefined;
  let currentRow = -1;
  let currentSeen: Set<string> | undefined;
  let lastModel: number | undefined;
  let seqRow = -1;
  let seqSet: Set<string> | undefined;
  for (let r = 0; r < atoms.rows; r++) {
    const model = modelCol && modelCol.valueKind(r) === 0 ? modelCol.int(r) : 1;
    if (model !== lastModel) {
      models.add(model);
      lastModel = model;
    }
    firstModel ??= model;
    if (model !== firstModel) continue;
    atomCount++;
    let a: AsymInfo | undefined;
    if (current && same(asymCol, r, currentRow)) a = current;
    else {
      const aid = present(asymCol, r);
      if (!aid) continue;
      a = current?.id === aid ? current : asyms.get(aid);
      if (!a) {
        // An instance the file does not list in struct_asym: known by its atoms alone.
        const eid = present(entityCol, r) ?? '';
        a = { id: aid, entityId: eid, authId: undefined, atoms: 0, hydrogens: 0, modeledResidues: 0, firstAuthSeq: undefined, authSeqMap: [] };
        asyms.set(aid, a);
        entities.get(eid)?.asyms.push(aid);
      }
      if (a !== current) {
        current = a;
        currentSeen = seen.get(aid);
        if (!currentSeen) seen.set(aid, (currentSeen = new Set()));
      }
      currentRow = r;
    }
    a.atoms++;
    if (hydrogen(r)) a.hydrogens++;
    a.authId ??= present(authAsymCol, r);
    a.firstAuthSeq ??= present(authSeqCol, r);
    // A residue number already added to this chain's set is not added again.
    if (seqSet === currentSeen && same(seqCol, r, seqRow)) continue;
    const sid = present(seqCol, r);
    if (sid) {
      currentSeen?.add(sid);
      seqRow = r;
      seqSet = currentSeen;
    }
  }
  for (const [aid, s] of seen) {
    const a = asyms.get(aid);
    if (a) a.modeledResidues = s.size;
  }
  return { models, atomCount, rows: atoms.rows };
}

/** Author chain ids and numbering where no atom says them (unmodeled chains), from the schemes. */
function authFromSchemes(entry: Entry, asyms: Map<string, AsymInfo>): void {
  for (const scheme of ['pdbx_poly_seq_scheme', 'pdbx_nonpoly_scheme', 'pdbx_branch_scheme']) {
    const t = entry.table(scheme);
    for (let r = 0; r < t.rows; r++) {
      const a = asyms.get(t.str('asym_id', r) ?? '');
      if (!a) continue;
      a.authId ??= t.str('pdb_strand_id', r) ?? t.str('auth_asym_id', r);
      if (scheme === 'pdbx_poly_seq_scheme') a.authSeqMap.push(t.str('auth_seq_num', r) ?? '?');
      else a.firstAuthSeq ??= t.str('auth_seq_num', r) ?? t.str('pdb_seq_num', r);
    }
  }
}

/** The entities, instances and atom statistics of one entry, read once and shared by its documents. */
export function structureModel(entry: Entry, id: string): StructureModel {
  const entities = entitiesFrom(entry);
  const asyms = asymsFrom(entry, entities);
  const { models, atomCount, rows } = readAtoms(entry, entities, asyms);
  authFromSchemes(entry, asyms);
  return {
    entry,
    id,
    entities,
    asyms,
    modelIds: [...models].sort((a, b) => a - b),
    atomCount,
    atomRows: rows,
  };
}

export function entitiesOf(m: StructureModel, kind: EntityKind): EntityInfo[] {
  return [...m.entities.values()].filter((e) => e.kind === kind);
}

/** The Data API's polymer type names, from entity_poly.type. */
export function polymerType(polyType: string | undefined): 'Protein' | 'DNA' | 'RNA' | 'NA-hybrid' | 'Other' {
  const t = (polyType ?? '').toLowerCase();
  if (t.startsWith('polypeptide')) return 'Protein';
  if (t === 'polydeoxyribonucleotide') return 'DNA';
  if (t === 'polyribonucleotide') return 'RNA';
  if (t === 'polydeoxyribonucleotide/polyribonucleotide hybrid') return 'NA-hybrid';
  return 'Other';
}

/** kDa rounded as the Data API writes weights (three decimals). */
export const kDa = (daltons: number | undefined): number | undefined => (daltons === undefined ? undefined : Math.round(daltons) / 1000);
