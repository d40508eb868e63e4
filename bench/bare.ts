/**
 * The baseline: a bare Fastify route answering a study-sized JSON document from memory, with no
 * database, logging or limits. `node dist-bench/bench/bare.js <port> <file-with-body>`
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port = '0', bodyFile] = process.argv.slice(2);
const body = bodyFile ? readFileSync(bodyFile, 'utf8') : '{}';
const app = Fastify();
app.get('/studies/:id', async (_req, reply) => reply.type('application/json').send(body));
const url = await app.listen({ host: '127.0.0.1', port: Number(port) });
process.stderr.write(`bare listening on ${url}\n`);
