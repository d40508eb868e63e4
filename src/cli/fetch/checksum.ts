/** The MD5 checksums NCBI and others publish beside their files, as `<file>.md5`. */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * The digest a published `.md5` file gives for `name`. Both common layouts are read: md5sum's
 * (`<hex>  <name>`) and OpenSSL's (`MD5(<name>)= <hex>`); a file of several lines is searched for
 * the line naming the file.
 */
export function parseMd5(text: string, name: string): string | undefined {
  const lines = text.split(/\r?\n/).filter((l) => /[0-9a-f]{32}/i.test(l));
  const line = lines.length === 1 ? lines[0] : lines.find((l) => l.includes(name));
  return /\b([0-9a-f]{32})\b/i.exec(line ?? '')?.[1]?.toLowerCase();
}

export async function md5File(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20, ...(signal ? { signal } : {}) })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
