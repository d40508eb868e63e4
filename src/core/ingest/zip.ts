import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { FormatError } from './errors.js';

export interface ZipEntry {
  name: string;
  index: number;
  total: number;
  size: number;
  stream(): Promise<Readable>;
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

/** Streams the file entries of a zip archive one at a time, without unpacking it to disk. */
export async function* zipEntries(path: string): AsyncGenerator<ZipEntry> {
  const zip = await openZip(path);
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
      const open = () =>
        new Promise<Readable>((resolve, reject) => {
          zip.openReadStream(entry, (err, s) => (err || !s ? reject(err ?? new Error('no stream')) : resolve(s)));
        });
      yield {
        name: entry.fileName,
        index,
        total,
        size: entry.uncompressedSize,
        stream: open,
        read: async () => {
          const s = await open();
          const chunks: Buffer[] = [];
          for await (const c of s) chunks.push(c as Buffer);
          return Buffer.concat(chunks);
        },
      };
    }
  } finally {
    zip.close();
  }
}
