/**
 * A small streaming ZIP writer (deflate; ZIP64 end records past 65,535 entries), used to produce
 * archives shaped like the registry's bulk download. Test and benchmark tooling only.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

interface Central {
  name: Buffer;
  crc: number;
  csize: number;
  usize: number;
  offset: number;
}

export class ZipWriter {
  private readonly out: WriteStream;
  private offset = 0;
  private readonly entries: Central[] = [];

  constructor(path: string) {
    this.out = createWriteStream(path);
  }

  private async write(buf: Buffer): Promise<void> {
    this.offset += buf.length;
    if (!this.out.write(buf)) await new Promise<void>((r) => this.out.once('drain', () => r()));
  }

  async add(name: string, data: Buffer | string): Promise<void> {
    const raw = typeof data === 'string' ? Buffer.from(data) : data;
    const body = deflateRawSync(raw, { level: 1 });
    const nameBuf = Buffer.from(name);
    const crc = crc32(raw);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x0800, 6); // UTF-8 names
    h.writeUInt16LE(8, 8); // deflate
    h.writeUInt32LE(crc >>> 0, 14);
    h.writeUInt32LE(body.length, 18);
    h.writeUInt32LE(raw.length, 22);
    h.writeUInt16LE(nameBuf.length, 26);
    this.entries.push({ name: nameBuf, crc, csize: body.length, usize: raw.length, offset: this.offset });
    await this.write(h);
    await this.write(nameBuf);
    await this.write(body);
  }

  async close(): Promise<void> {
    const start = this.offset;
    for (const e of this.entries) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(20, 4);
      c.writeUInt16LE(20, 6);
      c.writeUInt16LE(0x0800, 8);
      c.writeUInt16LE(8, 10);
      c.writeUInt32LE(e.crc >>> 0, 16);
      c.writeUInt32LE(e.csize, 20);
      c.writeUInt32LE(e.usize, 24);
      c.writeUInt16LE(e.name.length, 28);
      c.writeUInt32LE(e.offset, 42);
      await this.write(c);
      await this.write(e.name);
    }
    const size = this.offset - start;
    const n = this.entries.length;
    if (n > 0xffff) {
      // ZIP64 end of central directory record and locator, for archives of more than 65,535 entries.
      const z = Buffer.alloc(56);
      z.writeUInt32LE(0x06064b50, 0);
      z.writeBigUInt64LE(44n, 4);
      z.writeUInt16LE(45, 12);
      z.writeUInt16LE(45, 14);
      z.writeBigUInt64LE(BigInt(n), 24);
      z.writeBigUInt64LE(BigInt(n), 32);
      z.writeBigUInt64LE(BigInt(size), 40);
      z.writeBigUInt64LE(BigInt(start), 48);
      const zOffset = this.offset;
      await this.write(z);
      const loc = Buffer.alloc(20);
      loc.writeUInt32LE(0x07064b50, 0);
      loc.writeBigUInt64LE(BigInt(zOffset), 8);
      loc.writeUInt32LE(1, 16);
      await this.write(loc);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(n, 0xffff), 8);
    end.writeUInt16LE(Math.min(n, 0xffff), 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
    await new Promise<void>((resolve, reject) => this.out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}
