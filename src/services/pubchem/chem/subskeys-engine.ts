/**
 * Where the 881 substructure keys of a molecule come from when no PubChem file gives them:
 * `subskeysOf` of subskeys.ts, which computes PubChem's key definitions on an RDKit molecule (the
 * heavy-atom molecule, hydrogens implicit, as loads and requests read structures), its answers
 * checked for shape and its failures turned into reasons.
 */
import { isEngineFault, type Mol } from './rdkit.js';
import { subskeysOf } from './subskeys.js';
import { invalidKeys } from './subskeys-codec.js';

export type SubskeysOf = (mol: Mol) => Uint8Array;

/** Keys of a molecule, or why they cannot be had. */
export type KeysOf = (mol: Mol) => Uint8Array | string;

let engine: KeysOf | undefined;

/** This thread's key computer (a promise, as callers in worker threads and loads await it). */
export function subskeysEngine(): Promise<KeysOf> {
  engine ??= checked(subskeysOf);
  return Promise.resolve(engine);
}

/** A computer's answers checked for shape, and its exceptions (but RDKit's own faults) as reasons. */
export function checked(fn: SubskeysOf): KeysOf {
  return (mol) => {
    let keys: Uint8Array;
    try {
      keys = fn(mol);
    } catch (err) {
      // A fault of RDKit itself goes to the caller, which replaces the engine as for any RDKit call.
      if (isEngineFault(err)) throw err;
      return `computing them failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (!(keys instanceof Uint8Array)) return 'the key computer gave no bytes';
    const bad = invalidKeys(keys);
    return bad ? `the key computer gave ${bad}` : new Uint8Array(keys);
  };
}
