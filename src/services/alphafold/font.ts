/**
 * A 5×7 bitmap font with the characters the PAE plot writes (digits and its axis titles), so the
 * image needs no font files and no text renderer.
 */
const GLYPHS: Record<string, string> = {
  '0': '01110 10001 10011 10101 11001 10001 01110',
  '1': '00100 01100 00100 00100 00100 00100 01110',
  '2': '01110 10001 00001 00010 00100 01000 11111',
  '3': '11110 00001 00001 01110 00001 00001 11110',
  '4': '00010 00110 01010 10010 11111 00010 00010',
  '5': '11111 10000 11110 00001 00001 10001 01110',
  '6': '00110 01000 10000 11110 10001 10001 01110',
  '7': '11111 00001 00010 00100 01000 01000 01000',
  '8': '01110 10001 10001 01110 10001 10001 01110',
  '9': '01110 10001 10001 01111 00001 00010 01100',
  A: '01110 10001 10001 11111 10001 10001 10001',
  C: '01110 10001 10000 10000 10000 10001 01110',
  D: '11110 10001 10001 10001 10001 10001 11110',
  E: '11111 10000 10000 11110 10000 10000 11111',
  G: '01110 10001 10000 10111 10001 10001 01111',
  I: '01110 00100 00100 00100 00100 00100 01110',
  L: '10000 10000 10000 10000 10000 10000 11111',
  N: '10001 11001 10101 10011 10001 10001 10001',
  O: '01110 10001 10001 10001 10001 10001 01110',
  P: '11110 10001 10001 11110 10000 10000 10000',
  R: '11110 10001 10001 11110 10100 10010 10001',
  S: '01111 10000 10000 01110 00001 00001 11110',
  T: '11111 00100 00100 00100 00100 00100 00100',
  U: '10001 10001 10001 10001 10001 10001 01110',
  X: '10001 10001 01010 00100 01010 10001 10001',
  '(': '00010 00100 01000 01000 01000 00100 00010',
  ')': '01000 00100 00010 00010 00010 00100 01000',
  Å: '00100 01010 01110 10001 11111 10001 10001',
  ' ': '00000 00000 00000 00000 00000 00000 00000',
};

const BITS = new Map<string, boolean[][]>(Object.entries(GLYPHS).map(([c, s]) => [c, s.split(' ').map((r) => [...r].map((b) => b === '1'))]));

export const GLYPH_W = 5;
export const GLYPH_H = 7;

/** Width in pixels of `text` at `scale` (one column of space between glyphs). */
export function textWidth(text: string, scale: number): number {
  return text.length === 0 ? 0 : (text.length * (GLYPH_W + 1) - 1) * scale;
}

/**
 * Calls `dot(x, y)` for every lit pixel of `text` with its top-left at (x, y); `vertical` writes it
 * rotated a quarter turn anticlockwise (reading bottom to top), with (x, y) its bottom-left.
 */
export function drawText(text: string, x: number, y: number, scale: number, dot: (x: number, y: number) => void, vertical = false): void {
  let pen = 0;
  for (const ch of text.toUpperCase()) {
    const g = BITS.get(ch) ?? BITS.get(' ');
    if (g) {
      for (let r = 0; r < GLYPH_H; r++) {
        for (let c = 0; c < GLYPH_W; c++) {
          if (!g[r]?.[c]) continue;
          for (let dy = 0; dy < scale; dy++) {
            for (let dx = 0; dx < scale; dx++) {
              const u = pen + c * scale + dx;
              const v = r * scale + dy;
              if (vertical) dot(x + v, y - u);
              else dot(x + u, y + v);
            }
          }
        }
      }
    }
    pen += (GLYPH_W + 1) * scale;
  }
}
