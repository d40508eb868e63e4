// @ts-check
/**
 * Structure matching off the main thread. A SMARTS or a large molecule can make one RDKit match
 * run for minutes and WASM calls cannot be interrupted, so they run here, where the pool can end
 * the whole thread when a search runs out of time. Plain JavaScript: Node must be able to start it
 * both from the source tree (tests) and from the build.
 *
 * Messages: {id, op: 'prepare', text, smarts} -> {id, atoms} (the query is readable);
 * {id, op: 'match', text, smarts, mode: 'sub'|'super', cids, smiles} -> {id, matched} (the
 * compounds are read from their SMILES: PubChem's load keeps no RDKit molecule);
 * a query RDKit cannot read -> {id, invalid: true}; one that faulted RDKit -> {id, invalid: true, retire: true},
 * after which the thread ends.
 */
import process from 'node:process';
import { parentPort } from 'node:worker_threads';

const init = (await import('@rdkit/rdkit')).default;
const rdkit = await init();
rdkit.disable_logging();

/** @type {{ key: string, mol: any } | undefined} */
let cached;

// Compounds are read for matching only: no hydrogens to remove (PubChem's SMILES are heavy-atom
// ones) and no stereo to assign (matching ignores it). Twice as fast as the full reading.
const FOR_MATCHING = JSON.stringify({ removeHs: false, assignStereo: false });

/**
 * A WASM fault (a molecule deep enough to overflow RDKit's stack) leaves this RDKit's memory
 * unusable: the thread answers the task that hit it, then ends, and the pool starts a fresh one.
 */
let poisoned = false;
const fault = (err) => {
  // WebAssembly.RuntimeError ("memory access out of bounds"), or a stack overflow inside a call.
  if (err instanceof Error && (err.name === 'RuntimeError' || err instanceof RangeError)) poisoned = true;
};

/** The query molecule, parsed once per query text. */
function query(text, smarts) {
  const key = `${smarts ? 'q' : 'm'}:${text}`;
  if (cached?.key === key) return cached.mol;
  if (cached) cached.mol.delete();
  cached = undefined;
  let mol = null;
  try {
    mol = smarts ? rdkit.get_qmol(text) : rdkit.get_mol(text, JSON.stringify({ removeHs: true }));
  } catch (err) {
    fault(err);
    mol = null;
  }
  if (!mol || !mol.is_valid()) {
    mol?.delete();
    return undefined;
  }
  cached = { key, mol };
  return mol;
}

function handle(msg) {
  const q = query(msg.text, msg.smarts);
  if (!q) return { id: msg.id, invalid: true };
  if (msg.op === 'prepare') return { id: msg.id, atoms: q.get_num_atoms() };
  const matched = [];
  for (let i = 0; i < msg.cids.length; i++) {
    let m = null;
    try {
      m = rdkit.get_mol(msg.smiles[i], FOR_MATCHING);
    } catch (err) {
      fault(err);
      if (poisoned) throw err;
    }
    if (!m) continue;
    if (!m.is_valid()) {
      m.delete();
      continue;
    }
    try {
      const hit = msg.mode === 'sub' ? m.get_substruct_match(q) : q.get_substruct_match(m);
      if (hit !== '{}') matched.push(msg.cids[i]);
    } finally {
      m.delete();
    }
  }
  return { id: msg.id, matched };
}

parentPort?.on('message', (msg) => {
  let reply;
  try {
    reply = handle(msg);
  } catch (err) {
    fault(err);
    reply = { id: msg.id, error: String(err && err.message ? err.message : err) };
  }
  // The query that faulted the engine is the one answered as unreadable; the thread retires with
  // that answer, so the pool gives the next task a fresh thread.
  if (poisoned) reply = { id: msg.id, invalid: true, retire: true };
  parentPort?.postMessage(reply);
  if (poisoned) process.exit(70);
});
parentPort?.postMessage({ ready: true });
