/**
 * RDKit (WASM), loaded once per thread on first use: the server does not pay for it until a
 * chemistry request or a load needs it. Every Mol lives in WASM memory and must be deleted.
 */
import type { MainModule, Mol } from '@rdkit/rdkit';

export type RDKit = MainModule;
export type { Mol };

let loading: Promise<RDKit> | undefined;
let current: RDKit | undefined;

/** This thread's engine, as `/health` reports the main thread's (which only loads use). */
export const engineState = { replacements: 0, renewals: 0, lastFault: undefined as string | undefined };

/**
 * True for the errors of a WASM fault: a molecule deep enough to overflow RDKit's stack ends in a
 * RuntimeError ("memory access out of bounds") after which that instance's memory is unusable.
 */
export function isEngineFault(err: unknown): boolean {
  // WebAssembly.RuntimeError is named so; RangeError is a JavaScript stack overflow inside a call.
  return err instanceof Error && (err.name === 'RuntimeError' || err instanceof RangeError);
}

/**
 * Called with any error that came out of an RDKit call: on a fault the instance is dropped, so the
 * next request gets a fresh module (its own memory) while the one that hit the fault gets its
 * error. Mols of the old instance are request-local and die with it.
 */
export function noteEngineFault(err: unknown, r?: RDKit): void {
  if (!isEngineFault(err)) return;
  if (r !== undefined && r !== current) return; // already replaced
  engineState.replacements++;
  engineState.lastFault = new Date().toISOString();
  loading = undefined;
  current = undefined;
}

/**
 * After this many uses the instance is replaced even without a fault: a WASM heap only grows, and
 * what leaked or fragmented in it goes with it. In-flight users keep the old one until they finish.
 */
export const rdkitBudget = { uses: Number(process.env.BIOMIRROR_RDKIT_BUDGET ?? 20_000) };
let uses = 0;

export function rdkit(): Promise<RDKit> {
  if (++uses > rdkitBudget.uses && current) {
    uses = 1;
    engineState.renewals++;
    loading = undefined;
    current = undefined;
  }
  loading ??= (async () => {
    // A CommonJS module: its factory is the default export at run time.
    const mod = (await import('@rdkit/rdkit')) as unknown as { default: (options?: unknown) => Promise<RDKit> };
    const r = await mod.default();
    // RDKit writes parse warnings to stderr; callers turn failures into answers themselves.
    r.disable_logging();
    current = r;
    return r;
  })();
  return loading;
}

/**
 * The longest text handed to RDKit on this thread: a call here cannot be interrupted, so its size
 * is bounded before the engine sees it (the largest PubChem molfiles are a few hundred kB).
 */
export const MAX_INPUT_CHARS = 1_000_000;

/** A molecule from SMILES or a molfile, or undefined when RDKit cannot read it. */
export function parseMol(r: RDKit, text: string, details?: Record<string, unknown>): Mol | undefined {
  if (text.length > MAX_INPUT_CHARS) return undefined;
  let m: Mol | null = null;
  try {
    m = details ? r.get_mol(text, JSON.stringify(details)) : r.get_mol(text);
  } catch (err) {
    noteEngineFault(err, r);
    return undefined;
  }
  if (!m) return undefined;
  if (!m.is_valid()) {
    m.delete();
    return undefined;
  }
  return m;
}

/** A query molecule from SMARTS, or undefined. */
export function parseQuery(r: RDKit, smarts: string): Mol | undefined {
  if (smarts.length > MAX_INPUT_CHARS) return undefined;
  let m: Mol | null = null;
  try {
    m = r.get_qmol(smarts);
  } catch (err) {
    noteEngineFault(err, r);
    return undefined;
  }
  if (!m) return undefined;
  if (!m.is_valid()) {
    m.delete();
    return undefined;
  }
  return m;
}
