/**
 * The PAE plot, drawn as the database draws its own: the matrix as a heatmap in shades of green
 * (dark for a low expected error, pale for the maximum), "Scored residue" across and "Aligned
 * residue" down with residue ticks, and a colour bar of the expected position error in ångströms.
 * Matrices wider than the plot are averaged over blocks; narrower ones are drawn with square cells.
 */
import { drawText, GLYPH_H, textWidth } from './font.js';
import { PaeFormatError, maxError, scanMatrix, valueStart, type PaeMatrix } from './pae.js';
import { encodePng } from './png.js';

/** The plot's side in pixels (at most; a matrix of n residues gets the largest whole cell size). */
export const PLOT = 600;

// matplotlib's Greens, reversed: index 0 is the colour of no error.
const STOPS = ['00441b', '006d2c', '238b45', '41ab5d', '74c476', 'a1d99b', 'c7e9c0', 'e5f5e0', 'f7fcf5'].map((h) => [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)));

/** 256 colours from no error (dark green) to the maximum (near white). */
export const RAMP: Uint8Array = (() => {
  const out = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (STOPS.length - 1);
    const k = Math.min(STOPS.length - 2, Math.floor(t));
    const f = t - k;
    for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(((STOPS[k] as number[])[c] as number) * (1 - f) + ((STOPS[k + 1] as number[])[c] as number) * f);
  }
  return out;
})();

const MARGIN = { left: 64, top: 16, bottom: 56, right: 100 };
const BAR_W = 18;
const BAR_GAP = 16;

/** A tick step giving at most `most` ticks over `span`. */
export function tickStep(span: number, most: number): number {
  for (const s of [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000]) if (span / s <= most) return s;
  return 10000;
}

export interface Layout {
  width: number;
  height: number;
  /** The heatmap's top-left corner and side. */
  x0: number;
  y0: number;
  side: number;
  /** The colour bar's left edge. */
  barX: number;
}

export function layoutFor(n: number): Layout {
  const side = n >= PLOT ? Math.ceil(n / Math.ceil(n / PLOT)) : n * Math.max(1, Math.floor(PLOT / n));
  const x0 = MARGIN.left;
  const y0 = MARGIN.top;
  const barX = x0 + side + BAR_GAP;
  return { width: barX + BAR_W + MARGIN.right - BAR_GAP, height: y0 + side + MARGIN.bottom, x0, y0, side, barX };
}

/** Block means of a matrix, at most PLOT cells a side, filled row by row. */
export class PaeGrid {
  readonly block: number;
  readonly cells: number;
  readonly sums: Float64Array;
  private readonly bin: Int32Array;
  private readonly size: Int32Array;

  constructor(readonly n: number) {
    this.block = n > PLOT ? Math.ceil(n / PLOT) : 1;
    this.cells = Math.ceil(n / this.block);
    this.sums = new Float64Array(this.cells * this.cells);
    this.bin = new Int32Array(n);
    this.size = new Int32Array(this.cells);
    for (let j = 0; j < n; j++) {
      const b = Math.floor(j / this.block);
      this.bin[j] = b;
      this.size[b] = (this.size[b] as number) + 1;
    }
  }

  add(row: ArrayLike<number>, i: number): void {
    const { sums, bin, n } = this;
    const base = (bin[i] as number) * this.cells;
    for (let j = 0; j < n; j++) {
      const k = base + (bin[j] as number);
      sums[k] = (sums[k] as number) + (row[j] as number);
    }
  }

  mean(y: number, x: number): number {
    return (this.sums[y * this.cells + x] as number) / ((this.size[y] as number) * (this.size[x] as number));
  }
}

/** The image of a stored PAE file, read row by row into the grid (the matrix itself is never kept). */
export function renderPaeFile(buf: Buffer): Buffer {
  const at = valueStart(buf, 'predicted_aligned_error');
  if (at < 0) throw new PaeFormatError('no predicted_aligned_error array');
  let grid: PaeGrid | undefined;
  scanMatrix(buf, at, (row, i) => {
    grid ??= new PaeGrid(row.length);
    grid.add(row, i);
  });
  return renderGrid(grid as PaeGrid, maxError(buf) ?? 31.75);
}

export function renderPae(m: PaeMatrix): Buffer {
  const grid = new PaeGrid(m.n);
  for (let i = 0; i < m.n; i++) grid.add(m.values.subarray(i * m.n, (i + 1) * m.n), i);
  return renderGrid(grid, m.max);
}

function renderGrid(grid: PaeGrid, maxError: number): Buffer {
  const n = grid.n;
  const max = maxError > 0 ? maxError : 31.75;
  const L = layoutFor(n);
  const { width, height, x0, y0, side, barX } = L;
  const rgb = new Uint8Array(width * height * 3).fill(255);
  const put = (x: number, y: number, r: number, g: number, b: number) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const o = (y * width + x) * 3;
    rgb[o] = r;
    rgb[o + 1] = g;
    rgb[o + 2] = b;
  };
  const ink = (x: number, y: number) => put(x, y, 0, 0, 0);
  const shade = (v: number) => Math.max(0, Math.min(255, Math.round((v / max) * 255)));

  // Each cell (a residue pair, or the mean of a block of them) is a square of `px` pixels.
  const px = side / grid.cells;
  for (let cy = 0; cy < grid.cells; cy++) {
    for (let cx = 0; cx < grid.cells; cx++) {
      const c = shade(grid.mean(cy, cx)) * 3;
      const r = RAMP[c] as number;
      const g = RAMP[c + 1] as number;
      const b = RAMP[c + 2] as number;
      for (let dy = 0; dy < px; dy++) {
        const o = ((y0 + cy * px + dy) * width + x0 + cx * px) * 3;
        for (let dx = 0; dx < px; dx++) {
          rgb[o + dx * 3] = r;
          rgb[o + dx * 3 + 1] = g;
          rgb[o + dx * 3 + 2] = b;
        }
      }
    }
  }

  // Axes along the left and bottom of the heatmap, ticks at round residue numbers.
  for (let y = y0; y <= y0 + side; y++) ink(x0 - 1, y);
  for (let x = x0 - 1; x <= x0 + side; x++) ink(x, y0 + side);
  const step = tickStep(n, 8);
  const at = (r: number) => Math.round(((r - 0.5) / n) * side);
  for (let r = step; r <= n; r += step) {
    const p = at(r);
    const label = String(r);
    for (let d = 1; d <= 5; d++) {
      ink(x0 + p, y0 + side + d);
      ink(x0 - 1 - d, y0 + p);
    }
    drawText(label, x0 + p - Math.floor(textWidth(label, 1) / 2), y0 + side + 8, 1, ink);
    drawText(label, x0 - 9 - textWidth(label, 1), y0 + p - Math.floor(GLYPH_H / 2), 1, ink);
  }
  const xTitle = 'Scored residue';
  drawText(xTitle, x0 + Math.floor((side - textWidth(xTitle, 2)) / 2), y0 + side + 24, 2, ink);
  const yTitle = 'Aligned residue';
  drawText(yTitle, 6, y0 + Math.floor((side + textWidth(yTitle, 2)) / 2), 2, ink, true);

  // The colour bar: the ramp from 0 (bottom, dark) to the maximum (top, pale), with its ticks.
  for (let y = 0; y < side; y++) {
    const c = shade(((side - 1 - y) / Math.max(1, side - 1)) * max) * 3;
    for (let x = 0; x < BAR_W; x++) put(barX + x, y0 + y, RAMP[c] as number, RAMP[c + 1] as number, RAMP[c + 2] as number);
  }
  for (let y = y0 - 1; y <= y0 + side; y++) {
    ink(barX - 1, y);
    ink(barX + BAR_W, y);
  }
  for (let x = barX - 1; x <= barX + BAR_W; x++) {
    ink(x, y0 - 1);
    ink(x, y0 + side);
  }
  for (let e = 0; e <= max; e += 5) {
    const y = y0 + side - 1 - Math.round((e / max) * (side - 1));
    for (let d = 1; d <= 4; d++) ink(barX + BAR_W + d, y);
    drawText(String(e), barX + BAR_W + 7, y - Math.floor(GLYPH_H / 2), 1, ink);
  }
  const barTitle = 'Expected position error (Å)';
  const tw = textWidth(barTitle, 1);
  drawText(barTitle, barX + BAR_W + 26, y0 + Math.floor((side + tw) / 2), 1, ink, true);
  return encodePng(width, height, rgb);
}
