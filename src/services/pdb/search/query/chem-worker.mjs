// @ts-check
/**
 * Chemical similarity over the loaded chemical components, off the main thread (run by the
 * PubChem service's matching pool, which ends a thread that passes its deadline). The thread keeps
 * the components of one dictionary generation parsed, with their fingerprints and the standard
 * InChI RDKit computes for them.
 *
 * Message: {id, key, items: [{id, smiles}], smiles | inchi, match_type} -> {id, hits: [[compId, score]]};
 * a query that is not a readable SMILES or InChI -> {id, invalid: true}; an InChI query of a match
 * type that needs the molecule itself (fingerprints, substructures: RDKit cannot read InChI) whose
 * structure is none of the components' -> {id, unread: true}. Plain JavaScript: Node starts it
 * both from the source tree (tests) and from the build.
 */
import { parentPort } from 'node:worker_threads';

const init = (await import('@rdkit/rdkit')).default;
const rdkit = await init();
rdkit.disable_logging();

/**
 * @typedef {{ main: string, charge: string, stereo: string, isotopic: string }} Layers
 * @type {{ key: string, comps: { id: string, mol: any, maccs: Uint8Array, tree: Uint8Array, inchi: Layers | undefined }[] } | undefined}
 */
let loaded;

const TREE = JSON.stringify({ nBits: 2048 });

/** A formula layer: components separated by dots, each with an optional count (`2ClH.Zn`). */
const FORMULA = /^(\d*([A-Z][a-z]?\d*)+)(\.\d*([A-Z][a-z]?\d*)+)*$/;

/**
 * An InChI's layers as the graph match types weigh them: the skeleton (formula, connections,
 * hydrogens), the charge (`/q`, and the protons `/p` added or removed), the stereo layers
 * (`/b/t/m/s`) and the isotopic ones (`/i` and what follows it); undefined when the text is not an
 * InChI. A non-standard InChI's fixed-hydrogen and reconnected layers (`/f`, `/r`) are left out:
 * the components' InChI are standard ones, which have neither.
 * @param {string} text
 * @returns {Layers | undefined}
 */
function layersOf(text) {
  const m = /^InChI=1S?\/([^\s]+)$/.exec(text.trim());
  if (!m) return undefined;
  const [formula, ...rest] = /** @type {string} */ (m[1]).split('/');
  if (!formula || !FORMULA.test(formula)) return undefined;
  /** @type {Record<keyof Layers, string[]>} */
  const out = { main: [formula], charge: [], stereo: [], isotopic: [] };
  let isotopic = false;
  for (const layer of rest) {
    const tag = layer[0];
    if (tag === undefined) return undefined;
    if (tag === 'f' || tag === 'r') break;
    if (tag === 'i') isotopic = true;
    if (isotopic) out.isotopic.push(layer);
    else if (tag === 'c' || tag === 'h') out.main.push(layer);
    else if (tag === 'q' || tag === 'p') out.charge.push(layer);
    else if (tag === 'b' || tag === 't' || tag === 'm' || tag === 's') out.stereo.push(layer);
    else return undefined;
  }
  return { main: out.main.join('/'), charge: out.charge.join('/'), stereo: out.stereo.join('/'), isotopic: out.isotopic.join('/') };
}

/** @param {any} mol */
function inchiOf(mol) {
  try {
    const inchi = mol.get_inchi();
    return inchi ? layersOf(inchi) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whole-graph matches, on the InChI (the RCSB's criteria, schema of the chemical descriptor):
 * every kind compares atoms, connections and formal charge; relaxed ignores stereochemistry;
 * relaxed-stereo compares it; exact and strict compare everything, isotopes included (InChI
 * cannot tell their other criteria, aromaticity and ring membership, apart from these).
 * @param {Layers} q
 * @param {Layers} c
 * @param {string} type
 */
function sameGraph(q, c, type) {
  if (q.main !== c.main || q.charge !== c.charge) return false;
  if (type === 'graph-relaxed') return true;
  if (q.stereo !== c.stereo) return false;
  return type === 'graph-relaxed-stereo' || q.isotopic === c.isotopic;
}

/** @param {string} key @param {{ id: string, smiles: string }[]} items */
function load(key, items) {
  if (loaded?.key === key) return;
  for (const c of loaded?.comps ?? []) c.mol.delete();
  const comps = [];
  for (const it of items) {
    let mol = null;
    try {
      mol = rdkit.get_mol(it.smiles);
    } catch {
      mol = null;
    }
    if (!mol || !mol.is_valid()) continue;
    comps.push({ id: it.id, mol, maccs: mol.get_maccs_fp_as_uint8array(), tree: mol.get_rdkit_fp_as_uint8array(TREE), inchi: inchiOf(mol) });
  }
  loaded = { key, comps };
}

function tanimoto(a, b) {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    both += popcount(x & y);
    either += popcount(x | y);
  }
  return either === 0 ? 0 : both / either;
}
function popcount(v) {
  v = v - ((v >> 1) & 0x55);
  v = (v & 0x33) + ((v >> 2) & 0x33);
  return (v + (v >> 4)) & 0x0f;
}

/** Fingerprint thresholds and the number kept per fingerprint, as the RCSB's service documents them. */
const TREE_MIN = 0.6;
const MACCS_MIN = 0.9;
const TOP = 50;

/**
 * The query's molecule: read from SMILES, or for an InChI the component with the same standard
 * InChI (a copy, deleted by the caller like any query).
 * @returns {{ mol?: any, inchi?: Layers, invalid?: true, unread?: true }}
 */
function queryOf(msg, comps) {
  if (typeof msg.inchi === 'string') {
    const inchi = layersOf(msg.inchi);
    if (!inchi) return { invalid: true };
    if (msg.match_type.startsWith('graph-')) return { inchi };
    const same = comps.find((c) => c.inchi && sameGraph(inchi, c.inchi, 'graph-exact'));
    return same ? { mol: rdkit.get_mol_copy(same.mol), inchi } : { unread: true };
  }
  let mol = null;
  try {
    mol = rdkit.get_mol(msg.smiles);
  } catch {
    mol = null;
  }
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    return { invalid: true };
  }
  return { mol, inchi: inchiOf(mol) };
}

function search(msg) {
  load(msg.key, msg.items);
  const comps = loaded?.comps ?? [];
  const t = msg.match_type;
  const q = queryOf(msg, comps);
  if (q.invalid) return { id: msg.id, invalid: true };
  if (q.unread) return { id: msg.id, unread: true };
  try {
    /** @type {[string, number][]} */
    const hits = [];
    if (t === 'fingerprint-similarity') {
      const qm = q.mol.get_maccs_fp_as_uint8array();
      const qt = q.mol.get_rdkit_fp_as_uint8array(TREE);
      const best = new Map();
      const tree = comps
        .map((c) => [c.id, tanimoto(qt, c.tree)])
        .filter((x) => x[1] >= TREE_MIN)
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP);
      const maccs = comps
        .map((c) => [c.id, tanimoto(qm, c.maccs)])
        .filter((x) => x[1] >= MACCS_MIN)
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP);
      for (const [id, s] of [...tree, ...maccs]) best.set(id, Math.max(best.get(id) ?? 0, s));
      for (const [id, s] of best) hits.push([id, s]);
    } else if (t.startsWith('sub-struct-graph-')) {
      const details = JSON.stringify({ useChirality: t.endsWith('stereo') || t.endsWith('exact') || t.endsWith('strict') });
      for (const c of comps) if (c.mol.get_substruct_match(q.mol, details) !== '{}') hits.push([c.id, 1]);
    } else if (q.inchi) {
      const inchi = q.inchi;
      for (const c of comps) if (c.inchi && sameGraph(inchi, c.inchi, t)) hits.push([c.id, 1]);
    }
    return { id: msg.id, hits };
  } finally {
    q.mol?.delete();
  }
}

parentPort?.on('message', (msg) => {
  let reply;
  try {
    reply = search(msg);
  } catch (err) {
    reply = { id: msg.id, error: String(err && err.message ? err.message : err) };
  }
  parentPort?.postMessage(reply);
});
parentPort?.postMessage({ ready: true });
