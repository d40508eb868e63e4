/**
 * One compound's 3D conformer as PubChem's Compound_3D SD files carry it (an MMFF94s conformer
 * with explicit hydrogens, then PUBCHEM_* shape, feature and conformer-model tags), and what is
 * served from it: the 3D properties exactly as the tags publish them, the `record_type=3d` record
 * (the compound's 2D record with the conformer's atoms, bonds and coordinates) and the SD text.
 * A conformer computed here goes through the same builder, from an SD record this project writes
 * (marked with BIOMIRROR_COMPUTED), so every answer has one shape.
 */
import { atomicNumberOf } from './graph.js';
import { parseFeatureLines, type FeatureKind } from './features3d.js';
import type { Props } from './properties.js';
import { readMolfile, type SdfRecord } from './sdf.js';
import type { Atom3D } from './shape3d.js';

export const COMPUTED_3D_TAG = 'BIOMIRROR_COMPUTED';

export { PROPERTIES_3D } from './properties.js';

const FEATURE_PROPS: Record<FeatureKind, string> = {
  acceptor: 'FeatureAcceptorCount3D',
  donor: 'FeatureDonorCount3D',
  anion: 'FeatureAnionCount3D',
  cation: 'FeatureCationCount3D',
  rings: 'FeatureRingCount3D',
  hydrophobe: 'FeatureHydrophobeCount3D',
};

export interface Conformer {
  cid: number;
  /** PubChem's conformer id (16 hex digits); none for a conformer computed here. */
  conformerId: string | undefined;
  /** The 3D property values (only those the record carries). */
  props: Props;
  /** Atoms, bonds and coordinates of the 3D record (`PC_Compounds[0]` members), as JSON text. */
  parts: string;
  /** The SD record as served by `SDF`. */
  sdf: string;
  /** Whether this project computed the conformer (no PubChem file had it). */
  computed: boolean;
}

const num = (s: string | undefined): number | undefined => {
  if (s === undefined || s.trim() === '') return undefined;
  const n = Number(s.trim());
  return Number.isFinite(n) ? n : undefined;
};

const lines = (s: string | undefined) =>
  (s ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** The 3D properties the tags publish: volume, quadrupoles (multipoles 2 to 4), feature counts, model RMSD, rotors and conformer count. */
export function props3dFromTags(tags: ReadonlyMap<string, string>): Props {
  const p: Props = {};
  const volume = num(tags.get('PUBCHEM_SHAPE_VOLUME'));
  if (volume !== undefined) p.Volume3D = volume;
  const multipoles = lines(tags.get('PUBCHEM_SHAPE_MULTIPOLES')).map(Number);
  (['XStericQuadrupole3D', 'YStericQuadrupole3D', 'ZStericQuadrupole3D'] as const).forEach((name, i) => {
    const v = multipoles[i + 1];
    if (v !== undefined && Number.isFinite(v)) p[name] = v;
  });
  const featureText = tags.get('PUBCHEM_PHARMACOPHORE_FEATURES');
  if (featureText !== undefined) {
    const features = parseFeatureLines(featureText);
    p.FeatureCount3D = features.length;
    for (const [kind, name] of Object.entries(FEATURE_PROPS)) p[name] = features.filter((f) => f.kind === kind).length;
  }
  const rmsd = num(tags.get('PUBCHEM_CONFORMER_RMSD'));
  if (rmsd !== undefined) p.ConformerModelRMSD3D = rmsd;
  const rotors = num(tags.get('PUBCHEM_EFFECTIVE_ROTOR_COUNT'));
  if (rotors !== undefined) p.EffectiveRotorCount3D = rotors;
  // The diverse order lists every conformer of the model once.
  const order = lines(tags.get('PUBCHEM_CONFORMER_DIVERSEORDER'));
  if (order.length) p.ConformerCount3D = order.length;
  return p;
}

// PubChem's urn datatypes (PC-UrnDataType).
const STRING = 1;
const STRINGLIST = 2;
const UINTVEC = 6;
const DOUBLE = 7;
const DOUBLEVEC = 8;

interface Datum {
  urn: Record<string, unknown>;
  value: Record<string, unknown>;
}

/** PC-InfoData items for the tags, in PubChem's labels; computed ones say who computed them. */
function infoData(
  tags: ReadonlyMap<string, string>,
  which: readonly (readonly [string, string, string, number, 'sval' | 'fval' | 'fvec' | 'slist' | 'ivec'])[],
  computed: ReadonlySet<string>,
): Datum[] {
  const out: Datum[] = [];
  for (const [tag, label, name, datatype, as] of which) {
    const raw = tags.get(tag);
    if (raw === undefined || raw.trim() === '') continue;
    let value: unknown;
    if (as === 'sval') value = raw.trim();
    else if (as === 'fval') value = num(raw);
    else if (as === 'slist') value = lines(raw);
    else value = lines(raw).map(Number).filter(Number.isFinite);
    if (value === undefined) continue;
    const urn: Record<string, unknown> = { label, name, datatype };
    if (computed.has(tag)) {
      urn.software = 'OpenChemLib';
      urn.source = 'biomirror (computed)';
    }
    out.push({ urn, value: { [as]: value } });
  }
  return out;
}

const CONFORMER_DATA = [
  ['PUBCHEM_CONFORMER_ID', 'Conformer', 'ID', STRING, 'sval'],
  ['PUBCHEM_MMFF94_ENERGY', 'Energy', 'MMFF94 NoEstat', DOUBLE, 'fval'],
  ['PUBCHEM_SHAPE_FINGERPRINT', 'Fingerprint', 'Shape', STRINGLIST, 'slist'],
  ['PUBCHEM_SHAPE_MULTIPOLES', 'Shape', 'Multipoles', DOUBLEVEC, 'fvec'],
  ['PUBCHEM_SHAPE_SELFOVERLAP', 'Shape', 'Self Overlap', DOUBLE, 'fval'],
  ['PUBCHEM_SHAPE_VOLUME', 'Shape', 'Volume', DOUBLE, 'fval'],
  ['PUBCHEM_FEATURE_SELFOVERLAP', 'Feature', 'Self Overlap', DOUBLE, 'fval'],
] as const;

/** Data of the conformer model, in the coordinates' `data`. */
const MODEL_DATA = [
  ['PUBCHEM_CONFORMER_RMSD', 'Conformer', 'RMSD', DOUBLE, 'fval'],
  ['PUBCHEM_CONFORMER_DIVERSEORDER', 'Conformer', 'Diverse Order', UINTVEC, 'ivec'],
] as const;

/** Values of the compound in its 3D form, added to the record's `props` (where pubchempy reads them). */
const COMPOUND_DATA = [
  ['PUBCHEM_EFFECTIVE_ROTOR_COUNT', 'Count', 'Effective Rotor', DOUBLE, 'fval'],
  ['PUBCHEM_PHARMACOPHORE_FEATURES', 'Features', 'Pharmacophore', STRINGLIST, 'slist'],
  ['PUBCHEM_MMFF94_PARTIAL_CHARGES', 'Charge', 'MMFF94 Partial', STRINGLIST, 'slist'],
] as const;

/** Heavy atoms and hydrogens of a molfile as shape input, or a reason it cannot be one. */
export function atoms3d(molblock: string): Atom3D[] | string {
  const mf = readMolfile(molblock);
  if (typeof mf === 'string') return mf;
  const out: Atom3D[] = [];
  for (const a of mf.atoms) {
    const z = atomicNumberOf(a.symbol);
    if (z === undefined) return `unknown element symbol "${a.symbol}"`;
    out.push({ z, x: a.x, y: a.y, zc: a.z });
  }
  return out;
}

/** A conformer from one SD record of a Compound_3D file (or one written here), or why it is not one. */
export function conformerFromSdf(cid: number, rec: SdfRecord): Conformer | string {
  const mf = readMolfile(rec.molblock);
  if (typeof mf === 'string') return mf;
  if (!mf.atoms.length) return 'the molfile has no atoms';
  // A conformer has depth: a 2D record (all z = 0) is not one, whatever its tags say.
  if (mf.atoms.length > 1 && mf.atoms.every((a) => a.z === 0)) return 'the molfile has 2D coordinates only (z = 0): not a 3D conformer';
  const element: number[] = [];
  for (const a of mf.atoms) {
    const z = atomicNumberOf(a.symbol);
    if (z === undefined) return `unknown element symbol "${a.symbol}"`;
    element.push(z);
  }
  const computed = new Set(lines(rec.tags.get(COMPUTED_3D_TAG)));
  const aid = mf.atoms.map((_, i) => i + 1);
  const atoms: Record<string, unknown> = { aid, element };
  const charged = mf.atoms.map((a, i) => ({ aid: i + 1, value: a.charge })).filter((c) => c.value !== 0);
  if (charged.length) atoms.charge = charged;
  const pairs = mf.bonds.map((b) => ({ a1: Math.min(b.a, b.b), a2: Math.max(b.a, b.b), order: b.order }));
  const type = lines(rec.tags.get('PUBCHEM_COORDINATE_TYPE'))
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const conformer: Record<string, unknown> = { x: mf.atoms.map((a) => a.x), y: mf.atoms.map((a) => a.y), z: mf.atoms.map((a) => a.z) };
  const cdata = infoData(rec.tags, CONFORMER_DATA, computed);
  if (cdata.length) conformer.data = cdata;
  const coords: Record<string, unknown> = { type: type.length ? type : [2, 5, 10], aid, conformers: [conformer] };
  const mdata = infoData(rec.tags, MODEL_DATA, computed);
  if (mdata.length) coords.data = mdata;
  const props = infoData(rec.tags, COMPOUND_DATA, computed);
  const parts = {
    atoms,
    ...(pairs.length ? { bonds: { aid1: pairs.map((b) => b.a1), aid2: pairs.map((b) => b.a2), order: pairs.map((b) => b.order) } } : {}),
    coords: [coords],
    ...(props.length ? { props } : {}),
  };
  const id = rec.tags.get('PUBCHEM_CONFORMER_ID')?.trim();
  return {
    cid,
    conformerId: id && /^[0-9A-Fa-f]{16}$/.test(id) ? id.toUpperCase() : undefined,
    props: props3dFromTags(rec.tags),
    parts: JSON.stringify(parts),
    sdf: writeSd(rec),
    computed: computed.size > 0,
  };
}

function writeSd(rec: SdfRecord): string {
  let s = rec.molblock.endsWith('\n') ? rec.molblock : rec.molblock + '\n';
  for (const [k, v] of rec.tags) s += `> <${k}>\n${v}\n\n`;
  return s + '$$$$\n';
}

/**
 * The `record_type=3d` record: the compound's 2D record (identity, properties, counts) with the
 * conformer's atoms, bonds and coordinates in place of the 2D ones, as PubChem's 3D records are.
 */
export function record3d(record2d: Record<string, unknown>, c: Conformer): Record<string, unknown> {
  const parts = JSON.parse(c.parts) as { atoms: unknown; bonds?: unknown; coords: unknown; props?: unknown[] };
  const structure = { atoms: parts.atoms, ...(parts.bonds ? { bonds: parts.bonds } : {}), coords: parts.coords };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record2d)) {
    if (k === 'atoms') Object.assign(out, structure);
    else if (k === 'props') out.props = [...(Array.isArray(v) ? v : []), ...(parts.props ?? [])];
    else if (k !== 'bonds' && k !== 'coords' && k !== 'stereo') out[k] = v;
  }
  if (!out.atoms) Object.assign(out, structure);
  if (!out.props && parts.props) out.props = parts.props;
  return out;
}
