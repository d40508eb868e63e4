/**
 * One compound as the store keeps it, built from an SD record: the property values (PubChem's
 * from the PUBCHEM_* tags, the rest computed with RDKit), the full-record JSON, the SD text served
 * by `SDF` (the original tags, then computed ones, listed in BIOMIRROR_COMPUTED) and what
 * structure search needs (PubChem's 881 substructure keys; the matching threads read the SMILES).
 *
 * A record of PubChem's own files carries every value PubChem computes and its keys: it is built
 * without RDKit (the load's hot path; about 40 times faster). RDKit reads only records that lack
 * some of them (the demo's, other programs' SD files).
 */
import { compute } from './compute.js';
import { SDF_TAGS, propsFromComputed, propsFromTags, tagsFromProps, withTotals, type Props } from './properties.js';
import { parseMol, type Mol, type RDKit } from './rdkit.js';
import { compoundRecord } from './record.js';
import { parseSdfText, writeSdfRecord, type SdfRecord } from './sdf.js';
import { SUBSKEYS_TAG, decodeSubskeys, encodeSubskeys, keyCount } from './subskeys-codec.js';
import type { KeysOf } from './subskeys-engine.js';

export const COMPUTED_TAG = 'BIOMIRROR_COMPUTED';

export interface BuiltCompound {
  cid: number;
  inchikey: string;
  formula: string;
  mw: number | null;
  exactMass: number | null;
  monoisotopicMass: number | null;
  props: Props;
  /** Names of the properties the project computed (the rest came from PUBCHEM_* tags). */
  computed: string[];
  /** One PC_Compound as JSON text; empty for a record of PubChem's files, built when read (`storedRecord`). */
  record: string;
  sdf: string;
  /** PubChem's 881 substructure keys (111 bytes), from the SD tag or computed; null when neither gave them. */
  keys: Buffer | null;
  /** Keys set (the similarity index reads key sets in this order); null without keys. */
  bits: number | null;
  /** What the load reports about the record that still loads (a malformed key tag). */
  notes: string[];
  /** The SMILES with stereo and isotopes (the matching threads read structures from it); '' without one. */
  smiles: string;
}

const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : Number(v);
  return v === undefined || !Number.isFinite(n) ? null : n;
};

/** The heavy-atom molecule of a molfile (PubChem's carry explicit hydrogens). */
export function heavyMolecule(r: RDKit, molblock: string): Mol | undefined {
  const m = parseMol(r, molblock, { removeHs: true });
  return m;
}

export interface Structure {
  props: Props;
  computed: Set<string>;
  tags: Map<string, string>;
  record: Record<string, unknown>;
  /** The substructure keys, from the tag or computed. */
  keys?: Uint8Array;
  /** Why the structure has no keys, when its tag is malformed or computing them failed. */
  keysNote?: string;
}

interface Keys {
  keys?: Uint8Array;
  computed: boolean;
  note?: string;
}

/** The keys a PUBCHEM_CACTVS_SUBSKEYS value gives, or the note a malformed one gets. */
export function keysOfTag(tag: string): Keys {
  const d = decodeSubskeys(tag);
  return typeof d === 'string' ? { computed: false, note: `${SUBSKEYS_TAG} is malformed (${d})` } : { keys: d, computed: false };
}

/**
 * The substructure keys of a structure: PubChem's from the SD tag when there is one (a malformed
 * one is reported and gives none: a value PubChem did not publish is not made up in its place),
 * otherwise computed, when this build can.
 */
function keysFor(tags: ReadonlyMap<string, string>, mol: Mol | undefined, keysOf: KeysOf | undefined): Keys {
  const tag = tags.get(SUBSKEYS_TAG);
  if (tag !== undefined) return keysOfTag(tag);
  if (!keysOf || !mol) return { computed: false };
  const c = keysOf(mol);
  return typeof c === 'string' ? { computed: false, note: `its substructure keys could not be computed (${c})` } : { keys: c, computed: true };
}

// What compute() fills; when PubChem's tags carry all of it (its bulk files do), nothing is computed.
// XLogP is the exception: PubChem leaves it out where XLogP3 has no value (metals, salts), and a
// record that lacks only it is not completed with another program's estimate.
const COMPUTABLE = [
  'MolecularFormula',
  'MolecularWeight',
  'SMILES',
  'ConnectivitySMILES',
  'InChI',
  'InChIKey',
  'XLogP',
  'ExactMass',
  'MonoisotopicMass',
  'TPSA',
  'Complexity',
  'Charge',
  'HBondDonorCount',
  'HBondAcceptorCount',
  'RotatableBondCount',
  'HeavyAtomCount',
  'IsotopeAtomCount',
  'DefinedAtomStereoCount',
  'UndefinedAtomStereoCount',
  'DefinedBondStereoCount',
  'UndefinedBondStereoCount',
  'CovalentUnitCount',
];

/** What a record must carry to be stored without RDKit. */
export const REQUIRED_PROPS: readonly string[] = COMPUTABLE.filter((p) => p !== 'XLogP');

const isComplete = (fromTags: Props) => REQUIRED_PROPS.every((p) => fromTags[p] !== undefined);

/**
 * Property values and full record of a structure; tags win over computed values. `keysOf` computes
 * the substructure keys of a structure whose tags lack them.
 */
export function describe(
  r: RDKit,
  cid: number | undefined,
  molblock: string,
  tags: ReadonlyMap<string, string>,
  /** Needed only when the tags lack a computed value or the keys. */
  mol: Mol | undefined,
  keysOf?: KeysOf,
): Structure | string {
  const fromTags = propsFromTags(tags);
  const k = keysFor(tags, mol, keysOf);
  // Fingerprint2D is the tag's value only when it decodes, then in its canonical form.
  delete fromTags.Fingerprint2D;
  if (k.keys && !k.computed) fromTags.Fingerprint2D = encodeSubskeys(k.keys);
  const complete = isComplete(fromTags);
  if (!complete && !mol) return 'RDKit cannot read the structure';
  const fromRdkit: Props = complete || !mol ? {} : propsFromComputed(compute(r, mol));
  if (k.keys && k.computed) fromRdkit.Fingerprint2D = encodeSubskeys(k.keys);
  const props: Props = { ...fromRdkit, ...fromTags };
  const computed = new Set(Object.keys(fromRdkit).filter((p) => fromTags[p] === undefined));
  // Tags this project wrote itself (a generated SD file lists them) are computed values too.
  const generated = new Set((tags.get(COMPUTED_TAG) ?? '').split('\n').map((x) => x.trim()));
  for (const t of SDF_TAGS) if (generated.has(t.tag) && fromTags[t.prop] !== undefined) computed.add(t.prop);
  const all = withTotals(props);
  const record = compoundRecord({ cid, molblock, props: all, tags, computed, rdkitVersion: r.version() });
  if (typeof record === 'string') return record;
  return { props: all, computed, tags: new Map(tags), record, ...(k.keys ? { keys: k.keys } : {}), ...(k.note ? { keysNote: k.note } : {}) };
}

/** What a compound is looked up by, from its property values. */
function lookupColumns(cid: number, props: Props) {
  return {
    cid,
    inchikey: String(props.InChIKey ?? ''),
    formula: String(props.MolecularFormula ?? ''),
    mw: num(props.MolecularWeight),
    exactMass: num(props.ExactMass),
    monoisotopicMass: num(props.MonoisotopicMass),
    smiles: typeof props.SMILES === 'string' ? props.SMILES : '',
    props,
  };
}

/**
 * A record of PubChem's files, which carries every value and the keys: stored as it came, its
 * properties taken from its tags, its full record built when it is read. No RDKit.
 */
function fromPubchemFile(cid: number, rec: SdfRecord, fromTags: Props): BuiltCompound {
  const k = keysFor(rec.tags, undefined, undefined);
  const props = pubchemFileProps(fromTags, k.keys);
  const own = rec.tags.has(COMPUTED_TAG);
  return {
    ...lookupColumns(cid, props),
    computed: own ? generatedProps(rec.tags, props) : [],
    record: '',
    // As loaded: PubChem's files are written exactly as writeSdfRecord writes.
    sdf: rec.text !== undefined && !own ? rec.text : writeSdfRecord(rec.molblock, rec.tags),
    keys: k.keys ? Buffer.from(k.keys) : null,
    bits: k.keys ? keyCount(k.keys) : null,
    notes: k.note ? [k.note] : [],
  };
}

/** The property values of a record of PubChem's files: its tags', the keys in their canonical form, stereo totals. */
function pubchemFileProps(fromTags: Props, keys: Uint8Array | undefined): Props {
  delete fromTags.Fingerprint2D;
  if (keys) fromTags.Fingerprint2D = encodeSubskeys(keys);
  return withTotals(fromTags);
}

/**
 * A compound of PubChem's files as a load stores it when its SD text is kept as read: lookup
 * columns and keys; its property values are read from the text when asked (`storedProps`).
 */
export type FileColumns = Omit<BuiltCompound, 'props' | 'computed' | 'record' | 'sdf'>;

/** Property values of a compound stored with its SD text as read (ingest/sdf-scan.ts), from its SD text; a reason when the text is not a record. */
export function storedProps(sdf: string): Props | string {
  const rec = parseSdfText(sdf);
  return typeof rec === 'string' ? rec : fileProps(rec.tags);
}

/** The values of a record of PubChem's files from its tags, as its load would have stored them. */
const fileProps = (tags: ReadonlyMap<string, string>): Props => pubchemFileProps(propsFromTags(tags), keysFor(tags, undefined, undefined).keys);

/** Properties a generated SD file (one this project wrote) lists as computed. */
function generatedProps(tags: ReadonlyMap<string, string>, props: Props): string[] {
  const generated = new Set((tags.get(COMPUTED_TAG) ?? '').split('\n').map((x) => x.trim()));
  return SDF_TAGS.filter((t) => generated.has(t.tag) && props[t.prop] !== undefined).map((t) => t.prop);
}

/**
 * The full record of a stored compound: kept at load when it was built with RDKit, else built now
 * from the SD text and property values as loaded (what a load of PubChem's files keeps).
 */
export function storedRecord(cid: number, row: { record: string; sdf: string; props: string; computed: string }, rdkitVersion: string): Record<string, unknown> {
  if (row.record) return JSON.parse(row.record) as Record<string, unknown>;
  const rec = parseSdfText(row.sdf);
  // '' for a record of PubChem's files kept as read: its values come from the text parsed here.
  const props = row.props ? (JSON.parse(row.props) as Props) : typeof rec === 'string' ? {} : fileProps(rec.tags);
  const computed = new Set(row.computed ? row.computed.split(',') : []);
  const built = typeof rec === 'string' ? rec : compoundRecord({ cid, molblock: rec.molblock, props, tags: rec.tags, computed, rdkitVersion });
  // A molfile the record cannot be built from still has its identity and values.
  return typeof built === 'string' ? { id: { id: { cid } }, props: [], count: {} } : built;
}

/**
 * One SD record as stored; `keysOf` computes the substructure keys of a record without the tag.
 * `r` is asked for only when the record needs it.
 */
export function buildCompound(r: RDKit, cid: number, rec: SdfRecord, keysOf?: KeysOf): BuiltCompound | string {
  const fromTags = propsFromTags(rec.tags);
  if (rec.tags.has(SUBSKEYS_TAG) && isComplete(fromTags)) return fromPubchemFile(cid, rec, fromTags);
  return buildWithRdkit(r, cid, rec, fromTags, keysOf);
}

/**
 * A record of PubChem's own files built without RDKit, or undefined when it lacks a value or its
 * keys (then `buildCompound` reads it with RDKit). The load's reading threads call this.
 */
export function compoundFromTags(cid: number, rec: SdfRecord): BuiltCompound | undefined {
  if (!rec.tags.has(SUBSKEYS_TAG)) return undefined;
  const fromTags = propsFromTags(rec.tags);
  return isComplete(fromTags) ? fromPubchemFile(cid, rec, fromTags) : undefined;
}

function buildWithRdkit(r: RDKit, cid: number, rec: SdfRecord, fromTags: Props, keysOf: KeysOf | undefined): BuiltCompound | string {
  const mol = heavyMolecule(r, rec.molblock);
  if (!mol) return 'RDKit cannot read the structure';
  try {
    const s = describe(r, cid, rec.molblock, rec.tags, mol, keysOf);
    if (typeof s === 'string') return s;
    // Tags for what was computed here, unless the record already carries the value under a tag of its own.
    const propOf = new Map(SDF_TAGS.map((x) => [x.tag, x.prop] as const));
    const extra = tagsFromProps(s.props).filter(([t]) => !rec.tags.has(t) && fromTags[propOf.get(t) ?? ''] === undefined && t !== 'PUBCHEM_COMPOUND_CANONICALIZED');
    const sdfTags: [string, string][] = [...rec.tags].filter(([t]) => t !== COMPUTED_TAG);
    if (extra.length) {
      sdfTags.push(...extra);
      sdfTags.push([COMPUTED_TAG, extra.map(([t]) => t).join('\n')]);
    }
    const p = s.props;
    return {
      ...lookupColumns(cid, p),
      computed: [...s.computed],
      record: JSON.stringify(s.record),
      sdf: writeSdfRecord(rec.molblock, sdfTags),
      keys: s.keys ? Buffer.from(s.keys) : null,
      bits: s.keys ? keyCount(s.keys) : null,
      notes: s.keysNote ? [s.keysNote] : [],
    };
  } finally {
    mol.delete();
  }
}

/**
 * A molfile with explicit hydrogens and 2D coordinates from CoordGen, as PubChem's SD files hold
 * them; or, `heavy`, heavy atoms with RDKit's quicker layout (twenty times faster, for bulk files).
 */
export function molfileWithHydrogens(r: RDKit, mol: Mol, title: string, heavy = false): string | undefined {
  const withH = heavy ? r.get_mol_copy(mol) : parseMol(r, mol.add_hs());
  if (!withH) return undefined;
  try {
    withH.set_new_coords(!heavy);
    const block = withH.get_molblock();
    const lines = block.split('\n');
    lines[0] = title;
    lines[1] = '  biomirror RDKit 2D (generated)';
    return lines.join('\n');
  } finally {
    withH.delete();
  }
}
