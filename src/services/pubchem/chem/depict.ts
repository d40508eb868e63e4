/**
 * Depictions: RDKit draws the molecule as SVG (atom labels as paths, so no fonts are needed) and
 * resvg (WASM) rasterizes it to PNG. resvg is loaded on the first image request.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Mol } from './rdkit.js';

let resvg: Promise<typeof import('@resvg/resvg-wasm')> | undefined;

function loadResvg(): Promise<typeof import('@resvg/resvg-wasm')> {
  resvg ??= (async () => {
    const mod = await import('@resvg/resvg-wasm');
    const require = createRequire(import.meta.url);
    await mod.initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
    return mod;
  })();
  return resvg;
}

export function svgOf(mol: Mol, width: number, height: number): string {
  return mol.get_svg(width, height);
}

export async function pngOf(svg: string): Promise<Buffer> {
  const { Resvg } = await loadResvg();
  const r = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } });
  try {
    const img = r.render();
    try {
      return Buffer.from(img.asPng());
    } finally {
      img.free();
    }
  } finally {
    r.free();
  }
}
