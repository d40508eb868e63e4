/**
 * The DTDs E-utilities replies name, served by this mirror: NCBI's own files (dtd/), and for a
 * docsum DTD NCBI has not published in that folder, the one written from the fields served. Replies
 * name them at this server's address by default, so that a client resolving them (Biopython) needs
 * no network; `BIOMIRROR_EUTILS_DTDS=public` keeps NCBI's addresses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { DOCSUM_FIELDS } from './handlers/esummary.js';
import { docsumDtd } from './schema.js';
import { DOCSUM_DTD, ENTREZ_DTD, EUTILS_DTD, NCBI_DTD } from './xml.js';
import { sourcePath } from '../../core/files/project.js';

const FOLDER = sourcePath('services/eutils/dtd/');

function load(): Map<string, string> {
  const out = new Map<string, string>();
  for (const db of Object.keys(DOCSUM_DTD) as (keyof typeof DOCSUM_DTD)[]) {
    out.set(DOCSUM_DTD[db].file, docsumDtd(`esummary db=${db}`, DOCSUM_FIELDS[db]));
  }
  for (const name of readdirSync(FOLDER)) if (name.endsWith('.dtd')) out.set(name, readFileSync(`${FOLDER}${name}`, 'utf8'));
  return out;
}

let dtds: Map<string, string> | undefined;

/** A DTD by file name (a Map: names come from request paths). */
export function dtdFile(name: string): string | undefined {
  dtds ??= load();
  return dtds.get(name);
}

export function dtdNames(): string[] {
  dtds ??= load();
  return [...dtds.keys()].sort();
}

/** Where replies name the DTDs: this server (default) or NCBI (`BIOMIRROR_EUTILS_DTDS=public`), read when the service starts. */
export function dtdAddresses(): 'local' | 'public' {
  return process.env.BIOMIRROR_EUTILS_DTDS === 'public' ? 'public' : 'local';
}

/**
 * The reply with NCBI's DTD addresses in its DOCTYPE replaced by this server's (`base` is the
 * service's origin and mount). Only the head is searched: the DOCTYPE comes within the first lines.
 */
export function localDoctype(body: string, base: string): string {
  const head = body.slice(0, 1024);
  if (!head.includes('<!DOCTYPE')) return body;
  const rewritten = head.replace(EUTILS_DTD, `${base}/eutils/dtd`).replace(NCBI_DTD, `${base}/data_specs/dtd`).replace(ENTREZ_DTD, `${base}/entrez/query/DTD`);
  return rewritten === head ? body : rewritten + body.slice(1024);
}
