/**
 * A structure thread (structures.ts): the RDKit work of serving requests (structures given in a
 * request, depictions) runs here, so a molecule that overflows RDKit's stack, or one call that runs
 * for long, ends this thread and never stalls the main one. Started from the build (dist).
 */
import process from 'node:process';
import { parentPort } from 'node:worker_threads';
import { COMPUTED_TAG, describe, heavyMolecule, molfileWithHydrogens } from './compound.js';
import { pngOf, svgOf } from './depict.js';
import { tagsFromProps } from './properties.js';
import { requestInchikey, requestMolecule } from './query.js';
import { engineState, isEngineFault, rdkit, type Mol, type RDKit } from './rdkit.js';
import { writeSdfRecord } from './sdf.js';
import { subskeysEngine } from './subskeys-engine.js';
import type { StructureReply, StructureTask } from './structures.js';

const png = async (mol: Mol, size: { width: number; height: number }) => new Uint8Array(await pngOf(svgOf(mol, size.width, size.height)));

/** The record PubChem computes for a structure that is not in the database, and its image when asked for. */
async function record(r: RDKit, t: Extract<StructureTask, { op: 'record' }>): Promise<Partial<StructureReply>> {
  const mol = requestMolecule(r, t.kind, t.text);
  if (!mol) return { invalid: true };
  try {
    const block = molfileWithHydrogens(r, mol, '');
    // PubChem's record of a new structure carries its computed keys too, where this build can compute them.
    const d = block ? describe(r, undefined, block, new Map(), mol, await subskeysEngine()) : 'no molfile';
    if (!block || typeof d === 'string') return { invalid: true };
    if (t.image) return { png: await png(mol, t.image) };
    const tags = tagsFromProps(d.props);
    return { record: d.record, sdf: writeSdfRecord(block, [...tags, [COMPUTED_TAG, tags.map(([tag]) => tag).join('\n')]]) };
  } finally {
    mol.delete();
  }
}

/** The substructure keys of a request's structure (a similarity query), or why there are none. */
async function subskeys(r: RDKit, t: Extract<StructureTask, { op: 'subskeys' }>): Promise<Partial<StructureReply>> {
  const mol = requestMolecule(r, t.kind, t.text);
  if (!mol) return { invalid: true };
  try {
    const keysOf = await subskeysEngine();
    const keys = keysOf(mol);
    return typeof keys === 'string' ? { unavailable: keys } : { keys };
  } finally {
    mol.delete();
  }
}

/** The image of a stored molfile (heavy atoms), with its atom count. */
async function depict(r: RDKit, t: Extract<StructureTask, { op: 'depict' }>): Promise<Partial<StructureReply>> {
  const mol = heavyMolecule(r, t.molfile);
  if (!mol) return { invalid: true };
  try {
    return { atoms: mol.get_num_atoms(), png: await png(mol, t) };
  } finally {
    mol.delete();
  }
}

async function handle(r: RDKit, t: StructureTask): Promise<Partial<StructureReply>> {
  switch (t.op) {
    case 'inchikey': {
      const key = requestInchikey(r, t.kind, t.text);
      return key ? { key } : { invalid: true };
    }
    case 'record':
      return record(r, t);
    case 'depict':
      return depict(r, t);
    case 'subskeys':
      return subskeys(r, t);
    case 'version':
      return { version: r.version() };
  }
}

// RDKit is loaded before the thread says it is ready: the pool does not charge start-up to a task.
await rdkit();
const port = parentPort;
port?.on('message', (t: StructureTask & { id: number }) => {
  const faults = engineState.replacements;
  void (async () => {
    let reply: Partial<StructureReply>;
    let poisoned = false;
    try {
      reply = await handle(await rdkit(), t);
    } catch (err) {
      // An exception out of RDKit on a request's structure is that structure's fault: it is answered
      // as unreadable, never as a server error.
      poisoned = isEngineFault(err);
      reply = { invalid: true };
    }
    // A WASM fault (noted by parseMol, or thrown) leaves this thread's RDKit unusable: the task that
    // hit it is answered as unreadable and the thread ends, so the pool gives the next task a fresh one.
    if (poisoned || engineState.replacements !== faults) {
      port.postMessage({ id: t.id, invalid: true, retire: true });
      process.exit(70);
      return;
    }
    port.postMessage({ ...reply, id: t.id }, reply.png ? [reply.png.buffer as ArrayBuffer] : []);
  })();
});
port?.postMessage({ ready: true });
