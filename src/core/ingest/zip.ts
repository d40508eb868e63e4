import { open, type FileHandle } from 'node:fs/promises';
import yauzl from 'yauzl';
import { crc32, inflateRawSync } from 'node:zlib';
import { FormatError } from './errors.js';

export interface ZipEntry {
  name: string;
  index: number;
  total: number;
  size: number;
  /** The entry's bytes, decompressed and checked against its CRC. */
  read(): Promise<Buffer>;
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false }, (err, zip) => {
      if (err || !zip) reject(new FormatError(`${path}: not a readable zip archive (${err?.message ?? 'unknown error'})`));
      else resolve(zip);
    });
  });
}

/**
 * Reads entry data through one large window over the file. Bulk archives hold hundreds of thousands
 * of small entries stored in order, so this turns one stream per entry into a few large reads.
 */
class Window {
  private buf = Buffer.alloc(16 << 20);
  private start = 0;
  private length = 0;
  constructor(private readonly fh: FileHandle) {}

  async slice(pos: number, len: number): Promise<Buffer> {
    if (pos >= this.start && pos + len <= this.start + this.length) return this.buf.subarray(pos - this.start, pos - this.start + len);
    if (len > this.buf.length) this.buf = Buffer.alloc(len);
    const { bytesRead } = await this.fh.read(this.buf, 0, this.buf.length, pos);
    this.start = pos;
    this.length = bytesRead;
    if (bytesRead < len) throw new Error('archive ends inside an entry');
    return this.buf.subarray(0, len);
  }
}

/** The entries of a zip archive, one at a time, read without unpacking the archive to disk. */
export async function* zipEntries(path: string): AsyncGenerator<ZipEntry> {
  const zip = await openZip(path);
  const fh = await open(path);
  const win = new Window(fh);
  const total = zip.entryCount;
  let index = 0;
  try {
    while (true) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        const onEntry = (e: yauzl.Entry) => {
          cleanup();
          resolve(e);
        };
        const onEnd = () => {
          cleanup();
          resolve(null);
        };
        const onError = (err: Error) => {
          cleanup();
          reject(new FormatError(`${path}: damaged zip archive (${err.message})`));
        };
        const cleanup = () => {
          zip.off('entry', onEntry);
          zip.off('end', onEnd);
          zip.off('error', onError);
        };
        zip.on('entry', onEntry);
        zip.on('end', onEnd);
        zip.on('error', onError);
        zip.readEntry();
      });
      if (!entry) return;
      index++;
      if (entry.fileName.endsWith('/')) continue;
      const e = entry;
      yield {
        name: e.fileName,
        index,
        total,
        size: e.uncompressedSize,
        read: async () => {
          if (e.generalPurposeBitFlag & 1) throw new Error('encrypted entry');
          const head = await win.slice(e.relativeOffsetOfLocalHeader, 30);
          if (head.readUInt32LE(0) !== 0x04034b50) throw new Error('bad local header');
          const dataStart = e.relativeOffsetOfLocalHeader + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
          const data = await win.slice(dataStart, e.compressedSize);
          let out: Buffer;
          if (e.compressionMethod === 0) out = Buffer.from(data);
          else if (e.compressionMethod === 8) out = inflateRawSync(data);
          else throw new Error(`compression method ${e.compressionMethod} is not supported`);
          if (out.length !== e.uncompressedSize || crc32(out) >>> 0 !== e.crc32 >>> 0) throw new Error('CRC or size mismatch (damaged entry)');
          return out;
        },
      };
    }
  } finally {
    zip.close();
    await fh.close();
  }
}
