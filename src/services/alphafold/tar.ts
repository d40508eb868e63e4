/**
 * Streams the members of a tar archive (the proteome shards are plain POSIX/GNU tars): ustar names
 * with their prefix, GNU long names and pax `path` records. Only regular files are yielded.
 */
import type { Readable } from 'node:stream';

export class TarFormatError extends Error {
  override readonly name = 'TarFormatError';
}

export interface TarMember {
  name: string;
  bytes: Buffer;
}

function field(h: Buffer, at: number, len: number): string {
  const end = h.indexOf(0, at);
  return h.toString('utf8', at, end >= 0 && end < at + len ? end : at + len);
}

function octal(h: Buffer, at: number, len: number): number {
  // GNU base-256 for sizes beyond 8 GiB.
  if ((h[at] as number) & 0x80) {
    let v = 0;
    for (let i = at + 1; i < at + len; i++) v = v * 256 + (h[i] as number);
    return v;
  }
  const s = field(h, at, len).trim();
  if (!/^[0-7]*$/.test(s)) throw new TarFormatError('not a tar archive (bad header)');
  return s === '' ? 0 : parseInt(s, 8);
}

function checksumOk(h: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] as number);
  return sum === octal(h, 148, 8);
}

/** Members of the archive on `stream`; members larger than `maxMember` bytes are refused. */
export async function* tarMembers(stream: Readable, maxMember = 1 << 30): AsyncGenerator<TarMember> {
  let buf = Buffer.alloc(0);
  const chunks = stream[Symbol.asyncIterator]();
  let ended = false;
  const need = async (n: number): Promise<boolean> => {
    const parts: Buffer[] = [buf];
    let have = buf.length;
    while (have < n && !ended) {
      const r = await chunks.next();
      if (r.done) {
        ended = true;
        break;
      }
      const c = r.value as Buffer;
      parts.push(c);
      have += c.length;
    }
    if (parts.length > 1) buf = Buffer.concat(parts, have);
    return buf.length >= n;
  };
  let longName: string | undefined;
  let first = true;
  for (;;) {
    if (!(await need(512))) {
      if (buf.length === 0 && !first) return;
      throw new TarFormatError('not a tar archive (cut short)');
    }
    const h = buf.subarray(0, 512);
    if (h.every((b) => b === 0)) return;
    if (!checksumOk(h)) throw new TarFormatError(first ? 'not a tar archive' : 'tar header checksum mismatch (archive damaged)');
    first = false;
    const size = octal(h, 124, 12);
    const type = String.fromCharCode(h[156] as number);
    const prefix = h.toString('latin1', 257, 262) === 'ustar' ? field(h, 345, 155) : '';
    let name = longName ?? (prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
    longName = undefined;
    const padded = size + ((512 - (size % 512)) % 512);
    if (size > maxMember) throw new TarFormatError(`${name}: member larger than ${maxMember} bytes`);
    if (!(await need(512 + padded))) throw new TarFormatError(`${name}: archive cut short`);
    const body = Buffer.from(buf.subarray(512, 512 + size));
    buf = buf.subarray(512 + padded);
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    if (type === 'x') {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      if (m?.[1]) longName = m[1];
      continue;
    }
    if (type !== '0' && type !== '\0' && type !== '7') continue;
    if (name.startsWith('./')) name = name.slice(2);
    yield { name, bytes: body };
  }
}
