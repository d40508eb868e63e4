/**
 * The polymer residues of the entries an archive load has parsed (its parsing threads read them
 * from the same parsed file as the documents), kept on disk until the load's last step builds the
 * coordinate indexes from them: that build then reads again only the files of entries the load did
 * not parse (those an update carries over unchanged). The file is removed from its folder as soon
 * as it is opened, so nothing is left behind when a load fails or the process ends.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class ResidueSpool {
  private readonly at = new Map<string, { offset: number; length: number }>();
  private size = 0;
  private fd: number | undefined;

  private constructor(fd: number) {
    this.fd = fd;
  }

  /** A new spool in a temporary folder under `parent`. */
  static open(parent: string): ResidueSpool {
    mkdirSync(parent, { recursive: true });
    const dir = mkdtempSync(join(parent, '.spool-residues-'));
    const fd = openSync(join(dir, 'residues'), 'w+');
    rmSync(dir, { recursive: true, force: true });
    return new ResidueSpool(fd);
  }

  /** Keeps an entry's encoded residues (a later call for the same entry replaces them). */
  add(id: string, encoded: Uint8Array): void {
    if (this.fd === undefined) return;
    for (let done = 0; done < encoded.byteLength;) done += writeSync(this.fd, encoded, done, encoded.byteLength - done, this.size + done);
    this.at.set(id, { offset: this.size, length: encoded.byteLength });
    this.size += encoded.byteLength;
  }

  /** An entry's encoded residues, or undefined when this load did not keep them. */
  get(id: string): Uint8Array | undefined {
    const a = this.at.get(id);
    if (!a || this.fd === undefined) return undefined;
    const out = new Uint8Array(a.length);
    let done = 0;
    while (done < a.length) {
      const n = readSync(this.fd, out, done, a.length - done, a.offset + done);
      if (n === 0) return undefined;
      done += n;
    }
    return out;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.at.clear();
  }
}
