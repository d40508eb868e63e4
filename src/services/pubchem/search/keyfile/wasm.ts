/**
 * A tiny WebAssembly binary encoder: just what the scan kernels (kernel.ts) need. Emitting the
 * bytes from source keeps the kernel readable and reviewable in the repository, with no compiler
 * and no opaque blob.
 */

/** Opcodes used by the kernels (WebAssembly core specification, 5.4). */
export const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  i64Load: 0x29,
  i32Store: 0x36,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Eqz: 0x45,
  i32Eq: 0x46,
  i32GeU: 0x4f,
  i64Eqz: 0x50,
  i32Add: 0x6a,
  i32Mul: 0x6c,
  i64Popcnt: 0x7b,
  i64Add: 0x7c,
  i64And: 0x83,
  i64Or: 0x84,
  i64Xor: 0x85,
  i32WrapI64: 0xa7,
} as const;

export const type = { i32: 0x7f, i64: 0x7e, void: 0x40 } as const;
type ValType = typeof type.i32 | typeof type.i64;

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n = Math.floor(n / 128);
    const done = (n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
}

const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];

/** Memory access immediate: alignment (log2) and offset. */
export const mem = (align: number, offset: number) => [...uleb(align), ...uleb(offset)];

export interface Func {
  name: string;
  params: ValType[];
  results: ValType[];
  /** Locals after the parameters, in order. */
  locals: ValType[];
  /** Instructions, without the final `end`. */
  body: number[];
}

/**
 * A module importing one memory as `env.memory` (so the caller owns it, and can read files straight
 * into it) and exporting the functions.
 */
export function encodeModule(funcs: Func[], memoryPages: number): Uint8Array<ArrayBuffer> {
  const types = funcs.map((f) => [0x60, ...uleb(f.params.length), ...f.params, ...uleb(f.results.length), ...f.results]);
  const imports = [[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(memoryPages)]];
  const bodies = funcs.map((f) => {
    const locals = vec(f.locals.map((t) => [1, t]));
    const code = [...locals, ...f.body, op.end];
    return [...uleb(code.length), ...code];
  });
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    ...section(2, vec(imports)),
    ...section(3, vec(funcs.map((_, i) => uleb(i)))),
    ...section(7, vec(funcs.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]))),
    ...section(10, vec(bodies)),
  ];
  return Uint8Array.from(bytes);
}
