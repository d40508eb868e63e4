/** HTTP surface of the RCSB file host (`/download/...`, `/view/...`), mounted at the files host's root. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { filesErrors } from './errors.js';
import { FileHost, type FileOutcome } from './handlers.js';
import { parseFileName, type FileName } from './names.js';
import { acceptsGzip, sendBody } from './send.js';
import type { EntryFileSource } from './source.js';

/** The download host sends every file as bytes to save; the view host as text to read. */
const DOWNLOAD_TYPE = 'application/octet-stream';
const VIEW_TYPE = 'text/plain';

/** The file host's handlers, logging what they skip to the app's log (shared with the site host). */
export function fileHost(app: FastifyInstance, source: EntryFileSource): FileHost {
  return new FileHost(source, (message) => app.log.warn({ service: 'pdb-files' }, message));
}

async function answer(host: FileHost, req: FastifyRequest, reply: FastifyReply, name: FileName, path: string, view: boolean): Promise<FastifyReply> {
  let outcome: FileOutcome;
  try {
    outcome = await host.file(name);
  } catch (e) {
    // The source failed (its database or file store): worth a retry, never a 500.
    req.log.error({ err: e }, 'file host could not read the entry');
    throw filesErrors.busy();
  }
  if (!outcome.found) {
    if (outcome.reason === 'timeout') throw filesErrors.busy();
    throw filesErrors.notFound(path);
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
  if (!bytes) throw filesErrors.notFound(path);
  return sendBody(req, reply, { bytes, etag: `"${outcome.tag}"`, contentType, vary: outcome.gzipped });
}

/** `/download/{file}` and `/view/{file}` of files.rcsb.org. */
export function fileHostRoutes(app: FastifyInstance, source: EntryFileSource): void {
  const host = fileHost(app, source);
  app.get<{ Params: { name: string } }>('/download/:name', async (req, reply) => {
    const name = parseFileName(req.params.name);
    if (!name) throw filesErrors.notFound(req.url);
    return answer(host, req, reply, name, req.url, false);
  });
  // The view form shows text files in the browser; it has no compressed or binary variants.
  app.get<{ Params: { name: string } }>('/view/:name', async (req, reply) => {
    const name = parseFileName(req.params.name);
    if (!name || name.gz || name.kind === 'bcif') throw filesErrors.notFound(req.url);
    return answer(host, req, reply, name, req.url, true);
  });
}
