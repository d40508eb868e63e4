/**
 * The process the file-host benchmark drives: biomirror's file-host routes over an in-memory
 * source of generated entries, and beside them, in the same process, bare routes that answer the
 * same entry's inflated mmCIF, or its stored gzip, from memory (the floor of serving a file).
 *   node dist-bench/bench/pdb-files-server.js <dir-with-ID.cif.gz-files>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { ROOT } from './lib/harness.js';

interface FilesModule {
  fileHostRoutes(app: FastifyInstance, source: unknown): void;
}
interface SourceModule {
  MemoryDerivedCache: new () => unknown;
}

const dir = process.argv[2] as string;
const stored = new Map<string, Buffer>();
for (const f of readdirSync(dir)) if (f.endsWith('.cif.gz')) stored.set(f.slice(0, 4).toUpperCase(), readFileSync(join(dir, f)));
const inflated = new Map([...stored].map(([id, b]) => [id, gunzipSync(b)]));

// The compiled library (the benchmark's own build cannot reach the sources).
const load = <T>(p: string) => import(pathToFileURL(join(ROOT, 'dist', p)).href) as Promise<T>;
const { fileHostRoutes } = await load<FilesModule>('services/pdb/files/routes.js');
const { MemoryDerivedCache } = await load<SourceModule>('services/pdb/files/source.js');
const source = {
  cif: (id: string) => Promise.resolve(stored.get(id)),
  structureFactors: () => Promise.resolve(undefined),
  cache: new MemoryDerivedCache(),
};

const app = Fastify();
app.get<{ Params: { id: string } }>('/bare-gz/:id', async (req, reply) => reply.type('application/octet-stream').header('content-encoding', 'gzip').send(stored.get(req.params.id.toUpperCase())));
app.get<{ Params: { id: string } }>('/bare/:id', async (req, reply) => reply.type('application/octet-stream').send(inflated.get(req.params.id.toUpperCase())));
await app.register(async (f) => fileHostRoutes(f, source), { prefix: '/rcsb/files' });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stderr.write(`pdb files listening on ${url}\n`);
// A clean exit on SIGTERM, so that --cpu-prof can write its profile.
process.once('SIGTERM', () => process.exit(0));
