/** Typed arrays kept as files of an index folder (little-endian, as written on every host we run on). */
import { open, readFile, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

type Typed = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;
type Ctor<T extends Typed> = { new (b: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number };

export function writeArray(dir: string, name: string, a: Typed): Promise<void> {
  return writeFile(join(dir, name), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}

export async function readArray<T extends Typed>(dir: string, name: string, C: Ctor<T>): Promise<T> {
  const b = await readFile(join(dir, name));
  // A buffer that does not start on the element's alignment is copied into one that does.
  const own = b.byteOffset % C.BYTES_PER_ELEMENT === 0 ? b : Buffer.from(b);
  return new C(own.buffer as ArrayBuffer, own.byteOffset, own.byteLength / C.BYTES_PER_ELEMENT);
}

/** A file written in order through a buffer (files of an index can be larger than memory allows). */
export class AppendFile {
  private buf: Buffer;
  private used = 0;
  /** Bytes written so far (flushed or not). */
  size = 0;

  private constructor(
    private readonly fh: FileHandle,
    bufferBytes: number,
  ) {
    this.buf = Buffer.allocUnsafe(bufferBytes);
  }

  static async create(path: string, bufferBytes = 4 << 20): Promise<AppendFile> {
    return new AppendFile(await open(path, 'w'), bufferBytes);
  }

  async write(a: Typed): Promise<void> {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    this.size += bytes.length;
    if (this.used + bytes.length > this.buf.length) await this.flush();
    if (bytes.length > this.buf.length) {
      await this.fh.write(bytes);
      return;
    }
    this.buf.set(bytes, this.used);
    this.used += bytes.length;
  }

  async flush(): Promise<void> {
    if (this.used) await this.fh.write(this.buf, 0, this.used);
    this.used = 0;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.fh.close();
  }
}

/** Reads `count` elements at element `start` of a file of one element type. */
export async function readAt<T extends Typed>(fh: FileHandle, C: Ctor<T>, start: number, count: number): Promise<T> {
  const width = C.BYTES_PER_ELEMENT;
  const out = new C(new ArrayBuffer(count * width), 0, count);
  if (count === 0) return out;
  const { bytesRead } = await fh.read(new Uint8Array(out.buffer), 0, count * width, start * width);
  if (bytesRead !== count * width) throw new Error('an index file is shorter than its table says');
  return out;
}
