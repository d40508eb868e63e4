/**
 * RDKit (WASM), loaded once per thread on first use: the server does not pay for it until a
 * chemistry request or a load needs it. Every Mol lives in WASM memory and must be deleted.
 */
import type { MainModule, Mol } from '@rdkit/rdkit';

export type RDKit = MainModule;
export type { Mol };

let loading: Promise<RDKit> | undefined;

export function rdkit(): Promise<RDKit> {
  loading ??= (async () => {
    // A CommonJS module: its factory is the default export at run time.
    const mod = (await import('@rdkit/rdkit')) as unknown as { default: (options?: unknown) => Promise<RDKit> };
    const r = await mod.default();
    // RDKit writes parse warnings to stderr; callers turn failures into answers themselves.
    r.disable_logging();
    return r;
  })();
  return loading;
}

/** A molecule from SMILES or a molfile, or undefined when RDKit cannot read it. */
export function parseMol(r: RDKit, text: string, details?: Record<string, unknown>): Mol | undefined {
  let m: Mol | null = null;
  try {
    m = details ? r.get_mol(text, JSON.stringify(details)) : r.get_mol(text);
  } catch {
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
  let m: Mol | null = null;
  try {
    m = r.get_qmol(smarts);
  } catch {
    return undefined;
  }
  if (!m) return undefined;
  if (!m.is_valid()) {
    m.delete();
    return undefined;
  }
  return m;
}
