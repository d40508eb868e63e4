// A process that takes one search off the shared queue and never finishes it: the test kills it
// with SIGKILL mid-search, as a crashed or killed biomirror process would be.
import process from 'node:process';
import pino from 'pino';
import { SearchQueue } from '../../dist/services/pubchem/search/queue.js';

const [redisUrl, prefix, lockMs] = process.argv.slice(2);
const q = new SearchQueue({ redisUrl, prefix, concurrency: 1, lockMs: Number(lockMs) }, pino({ level: 'silent' }));
q.consume(async (job) => {
  process.stdout.write(`taken ${job.key}\n`);
  await new Promise(() => undefined);
});
