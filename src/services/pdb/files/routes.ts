/**
 * HTTP surface of the RCSB file host (`/download/...`, `/view/...`) and of the site's FASTA
 * (`/fasta/...`). Mounted by the PDB service at the files host's and the site host's roots.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { filesErrors } from './errors.js';
import { fasta } from './fasta.js';
import { FileHost, type FileOutcome } from './handlers.js';
import { entryId, parseFileName, type FileName } from './names.js';
import { acceptsGzip, sendBody, sendError } from './send.js';
import type { EntryFileSource } from './source.js';

/** The download host sends every file as bytes to save; the view host as text to read. */
const DOWNLOAD_TYPE = 'application/octet-stream';
const VIEW_TYPE = 'text/plain';

function hosts(app: FastifyInstance, source: EntryFileSource): FileHost {
  return new FileHost(source, (message) => app.log.warn({ service: 'pdb-files' }, message));
}

async function answer(host: FileHost, req: FastifyRequest, reply: FastifyReply, name: FileName, path: string, view: boolean): Promise<FastifyReply> {
  let outcome: FileOutcome;
  try {
    outcome = await host.file(name);
  } catch (e) {
    // The source failed (its database or file store): worth a retry, never a 500.
    req.log.error({ err: e }, 'file host could not read the entry');
    return sendError(reply, filesErrors.busy());
  }
  if (!outcome.found) {
    if (outcome.reason === 'timeout') return sendError(reply, filesErrors.busy());
    return sendError(reply, filesErrors.notFound(path));
  }
  const contentType = view ? VIEW_TYPE : DOWNLOAD_TYPE;
  if (name.gz) {
    const bytes = await host.gzipped(outcome);
    return sendBody(req, reply, { bytes, etag: `"${outcome.tag}-gz"`, contentType });
  }
  if (outcome.gzipped && acceptsGzip(req) && !req.headers.range) {
    return sendBody(req, reply, { bytes: outcome.bytes, etag: `"${outcome.tag}-gzip"`, contentType, encoding: 'gzip', vary: true });
  }
  const bytes = await host.identity(outcome);
  if (!bytes) return sendError(reply, filesErrors.notFound(path));
  return sendBody(req, reply, { bytes, etag: `"${outcome.tag}"`, contentType, vary: outcome.gzipped });
}

/** `/download/{file}` and `/view/{file}` of files.rcsb.org. */
export function fileHostRoutes(app: FastifyInstance, source: EntryFileSource): void {
  const host = hosts(app, source);
  app.get<{ Params: { name: string } }>('/download/:name', async (req, reply) => {
    const name = parseFileName(req.params.name);
    if (!name) return sendError(reply, filesErrors.notFound(req.url));
    return answer(host, req, reply, name, req.url, false);
  });
  // The view form shows text files in the browser; it has no compressed or binary variants.
  app.get<{ Params: { name: string } }>('/view/:name', async (req, reply) => {
    const name = parseFileName(req.params.name);
    if (!name || name.gz || name.kind === 'bcif') return sendError(reply, filesErrors.notFound(req.url));
    return answer(host, req, reply, name, req.url, true);
  });
}

const FASTA_TYPE = 'text/plain; charset=utf-8';

/** `/fasta/entry/{id}`, `/fasta/entity/{id}_{n}`, `/fasta/chain/{id}.{asym}`, each also with `/download` (an attachment) or `/display`. */
export function siteRoutes(app: FastifyInstance, source: EntryFileSource): void {
  const host = hosts(app, source);
  type Params = { key: string; mode?: string };
  const serve = async (req: FastifyRequest<{ Params: Params }>, reply: FastifyReply, scope: 'entry' | 'entity' | 'chain') => {
    const { key, mode } = req.params;
    if (mode !== undefined && mode !== 'download' && mode !== 'display') return sendError(reply, filesErrors.fastaNotFound());
    const m = scope === 'entry' ? [key, key] : scope === 'entity' ? /^([^_]+)_(\d+)$/.exec(key) : /^([^.]+)\.(.+)$/.exec(key);
    const id = m ? entryId(m[1] as string) : undefined;
    if (!m || !id) return sendError(reply, filesErrors.fastaBadId());
    let result: Awaited<ReturnType<FileHost['sequences']>>;
    try {
      result = await host.sequences(id);
    } catch (e) {
      req.log.error({ err: e }, 'FASTA could not read the entry');
      return sendError(reply, filesErrors.busy());
    }
    if (!result.found) return result.reason === 'timeout' ? sendError(reply, filesErrors.busy()) : sendError(reply, filesErrors.fastaNotFound());
    let sequences = result.sequences;
    if (scope === 'entity') sequences = sequences.filter((s) => s.entityId === m[2]);
    if (scope === 'chain') {
      sequences = sequences
        .filter((s) => s.chains.some((c) => c.label === m[2]))
        .map((s) => ({ ...s, chains: s.chains.filter((c) => c.label === m[2]) }));
    }
    if (!sequences.length) return sendError(reply, filesErrors.fastaNotFound());
    const text = fasta(id, sequences);
    const suffix = scope === 'entry' ? id : scope === 'entity' ? `${id}_${m[2]}` : `${id}.${m[2]}`;
    return sendBody(req, reply, {
      bytes: Buffer.from(text, 'utf8'),
      etag: `"${Buffer.from(text).length.toString(16)}-${hashText(text)}"`,
      contentType: FASTA_TYPE,
      ...(mode === 'download' ? { disposition: `attachment; filename="rcsb_pdb_${suffix}.fasta"` } : {}),
    });
  };
  for (const scope of ['entry', 'entity', 'chain'] as const) {
    app.get<{ Params: Params }>(`/fasta/${scope}/:key`, (req, reply) => serve(req, reply, scope));
    app.get<{ Params: Params }>(`/fasta/${scope}/:key/:mode`, (req, reply) => serve(req, reply, scope));
  }
}

function hashText(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}
