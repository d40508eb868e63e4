/**
 * The PAE plot, drawn as the database draws its own: the matrix as a heatmap in shades of green
 * (dark for a low expected error, pale for the maximum), "Scored residue" across and "Aligned
 * residue" down with residue ticks, and a colour bar of the expected position error in ångströms.
 * Matrices wider than the plot are averaged over blocks; narrower ones are drawn with square cells.
 */
import { drawText, GLYPH_H, textWidth } from './font.js';
import type { PaeMatrix } from './pae.js';
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

export function renderPae(m: PaeMatrix): Buffer {
  const { n, values } = m;
  const max = m.max > 0 ? m.max : 31.75;
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

  // The cells: each pixel row/column covers a block of residues (mean) or a residue covers a square.
  const block = n > PLOT ? Math.ceil(n / PLOT) : 0;
  if (block > 0) {
    const cells = side;
    const sums = new Float64Array(cells * cells);
    const bin = new Int32Array(n);
    const size = new Int32Array(cells);
    for (let j = 0; j < n; j++) {
      const b = Math.floor(j / block);
      bin[j] = b;
      size[b] = (size[b] as number) + 1;
    }
    for (let i = 0; i < n; i++) {
      const bi = (bin[i] as number) * cells;
      const row = i * n;
      for (let j = 0; j < n; j++) {
        const k = bi + (bin[j] as number);
        sums[k] = (sums[k] as number) + (values[row + j] as number);
      }
    }
    for (let y = 0; y < cells; y++) {
      for (let x = 0; x < cells; x++) {
        const c = shade((sums[y * cells + x] as number) / ((size[y] as number) * (size[x] as number))) * 3;
        put(x0 + x, y0 + y, RAMP[c] as number, RAMP[c + 1] as number, RAMP[c + 2] as number);
      }
    }
  } else {
    const cell = side / n;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const c = shade(values[i * n + j] as number) * 3;
        const r = RAMP[c] as number;
        const g = RAMP[c + 1] as number;
        const b = RAMP[c + 2] as number;
        for (let dy = 0; dy < cell; dy++) {
          const o = ((y0 + i * cell + dy) * width + x0 + j * cell) * 3;
          for (let dx = 0; dx < cell; dx++) {
            rgb[o + dx * 3] = r;
            rgb[o + dx * 3 + 1] = g;
            rgb[o + dx * 3 + 2] = b;
          }
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
