import { readBlock, type Entry } from '../../../core/mmcif/block-reader.js';
import { assemblyDocument } from './assembly.js';
import { branchedEntity, instances, nonpolymerEntity, polymerEntity, type PartDocument } from './entity.js';
import { entryDocument, type EntryDocument } from './entry.js';
import { structureModel } from './model.js';

export type { PartDocument, ObjectKind } from './entity.js';

/** A chemical component as the entry file itself describes it (for components missing from the CCD). */
export interface LocalComponent {
  id: string;
  type?: string;
  name?: string;
  formula?: string;
  formula_weight?: number;
}

/** A polymer chain, for the SIFTS mapping (author chain ids) and for sequence search. */
export interface ChainInfo {
  asymId: string;
  authId: string | undefined;
  entityId: string;
}

export interface EntryDocuments {
  id: string;
  entry: EntryDocument;
  parts: PartDocument[];
  components: LocalComponent[];
  chains: ChainInfo[];
}

/** Valid PDB ids: four characters starting with a digit, or the extended `pdb_` + eight. */
export const ENTRY_ID = /^(?:[0-9][A-Z0-9]{3}|PDB_[0-9A-Z]{8})$/;

/** Every Data API document of one archive entry, from its mmCIF text. */
export async function entryDocuments(text: string, fallbackId: string, opts: { structureFactors: boolean }): Promise<EntryDocuments> {
  return documentsOf(await readBlock(text), fallbackId, opts);
}

/** The same from a block already read (the loader reads other things from it too). */
export function documentsOf(entry: Entry, fallbackId: string, opts: { structureFactors: boolean }): EntryDocuments {
  const fileId = entry.table('entry').str('id', 0) ?? entry.header;
  const id = (fileId || fallbackId).toUpperCase();
  if (!ENTRY_ID.test(id)) throw new Error(`not a PDB entry id: ${id}`);
  const m = structureModel(entry, id);
  const parts: PartDocument[] = [];
  for (const e of m.entities.values()) {
    if (e.kind === 'polymer') parts.push(polymerEntity(m, e));
    else if (e.kind === 'branched') parts.push(branchedEntity(m, e));
    else if (e.kind === 'non-polymer' || e.kind === 'macrolide') parts.push(nonpolymerEntity(m, e));
  }
  parts.push(...instances(m));
  const asm = entry.table('pdbx_struct_assembly');
  for (let r = 0; r < asm.rows; r++) {
    const aid = asm.str('id', r);
    if (aid) parts.push(assemblyDocument(m, aid));
  }
  const cc = entry.table('chem_comp');
  const components: LocalComponent[] = [];
  for (let r = 0; r < cc.rows; r++) {
    const cid = cc.str('id', r);
    if (!cid) continue;
    const c: LocalComponent = { id: cid };
    const type = cc.str('type', r);
    const name = cc.str('name', r);
    const formula = cc.str('formula', r);
    const fw = cc.num('formula_weight', r);
    if (type !== undefined) c.type = type;
    if (name !== undefined) c.name = name;
    if (formula !== undefined) c.formula = formula;
    if (fw !== undefined) c.formula_weight = fw;
    components.push(c);
  }
  const chains: ChainInfo[] = [];
  for (const a of m.asyms.values()) {
    if (m.entities.get(a.entityId)?.kind === 'polymer') chains.push({ asymId: a.id, authId: a.authId, entityId: a.entityId });
  }
  return { id, entry: entryDocument(m, opts), parts, components, chains };
}
