// @ts-check
/**
 * Chemical similarity over the loaded chemical components, off the main thread (run by the
 * PubChem service's matching pool, which ends a thread that passes its deadline). The thread keeps
 * the components of one dictionary generation parsed, with their fingerprints and InChIKeys.
 *
 * Message: {id, key, items: [{id, smiles}], smiles, match_type} -> {id, hits: [[compId, score]]};
 * a query RDKit cannot read -> {id, invalid: true}. Plain JavaScript: Node starts it both from the
 * source tree (tests) and from the build.
 */
import { parentPort } from 'node:worker_threads';

const init = (await import('@rdkit/rdkit')).default;
const rdkit = await init();
rdkit.disable_logging();

/** @type {{ key: string, comps: { id: string, mol: any, maccs: Uint8Array, tree: Uint8Array, ikey: string }[] } | undefined} */
let loaded;

const TREE = JSON.stringify({ nBits: 2048 });

function inchikey(mol) {
  try {
    const inchi = mol.get_inchi();
    return inchi ? rdkit.get_inchikey_for_inchi(inchi) : '';
  } catch {
    return '';
  }
}

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
    comps.push({ id: it.id, mol, maccs: mol.get_maccs_fp_as_uint8array(), tree: mol.get_rdkit_fp_as_uint8array(TREE), ikey: inchikey(mol) });
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

function search(msg) {
  load(msg.key, msg.items);
  let q = null;
  try {
    q = rdkit.get_mol(msg.smiles);
  } catch {
    q = null;
  }
  if (!q || !q.is_valid()) return { id: msg.id, invalid: true };
  try {
    const comps = loaded?.comps ?? [];
    const t = msg.match_type;
    /** @type {[string, number][]} */
    const hits = [];
    if (t === 'fingerprint-similarity') {
      const qm = q.get_maccs_fp_as_uint8array();
      const qt = q.get_rdkit_fp_as_uint8array(TREE);
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
      for (const c of comps) if (c.mol.get_substruct_match(q, details) !== '{}') hits.push([c.id, 1]);
    } else {
      // Whole-graph matches: InChIKeys compare the graph (first block), and stereo and charge state
      // (the rest); relaxed ignores stereo, relaxed-stereo ignores protonation.
      const k = inchikey(q);
      if (k) {
        const [a, b] = k.split('-');
        for (const c of comps) {
          const [x, y] = c.ikey.split('-');
          const same = t === 'graph-relaxed' ? a === x : t === 'graph-relaxed-stereo' ? a === x && b === y : c.ikey === k;
          if (same) hits.push([c.id, 1]);
        }
      }
    }
    return { id: msg.id, hits };
  } finally {
    q.delete();
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
