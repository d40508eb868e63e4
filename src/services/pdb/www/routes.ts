/** HTTP surface of the RCSB site's FASTA downloads (`/fasta/...`), mounted at the site host's root. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { filesErrors } from '../files/errors.js';
import type { FileHost } from '../files/handlers.js';
import { entryId } from '../files/names.js';
import { fileHost } from '../files/routes.js';
import { sendBody } from '../files/send.js';
import type { EntryFileSource } from '../files/source.js';
import { fasta } from './fasta.js';

const FASTA_TYPE = 'text/plain; charset=utf-8';

/** `/fasta/entry/{id}`, `/fasta/entity/{id}_{n}`, `/fasta/chain/{id}.{asym}`, each also with `/download` (an attachment) or `/display`. */
export function siteRoutes(app: FastifyInstance, source: EntryFileSource): void {
  const host = fileHost(app, source);
  type Params = { key: string; mode?: string };
  const serve = async (req: FastifyRequest<{ Params: Params }>, reply: FastifyReply, scope: 'entry' | 'entity' | 'chain') => {
    const { key, mode } = req.params;
    if (mode !== undefined && mode !== 'download' && mode !== 'display') throw filesErrors.fastaNotFound();
    const m = scope === 'entry' ? [key, key] : scope === 'entity' ? /^([^_]+)_(\d+)$/.exec(key) : /^([^.]+)\.(.+)$/.exec(key);
    const id = m ? entryId(m[1] as string) : undefined;
    if (!m || !id) throw filesErrors.fastaBadId();
    let result: Awaited<ReturnType<FileHost['sequences']>>;
    try {
      result = await host.sequences(id);
    } catch (e) {
      req.log.error({ err: e }, 'FASTA could not read the entry');
      throw filesErrors.busy();
    }
    if (!result.found) throw result.reason === 'timeout' ? filesErrors.busy() : filesErrors.fastaNotFound();
    let sequences = result.sequences;
    if (scope === 'entity') sequences = sequences.filter((s) => s.entityId === m[2]);
    if (scope === 'chain') {
      sequences = sequences.filter((s) => s.chains.some((c) => c.label === m[2])).map((s) => ({ ...s, chains: s.chains.filter((c) => c.label === m[2]) }));
    }
    if (!sequences.length) throw filesErrors.fastaNotFound();
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
