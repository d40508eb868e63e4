/**
 * Structure searches on a shared queue (BullMQ on Redis), when biomirror runs with REDIS_URL: the
 * process that takes the request enqueues the search under its list key, and whichever process has
 * a free matching thread runs it. A process that dies in the middle of a search loses nothing: its
 * job's lock runs out and another process runs it again (once; a second stall fails it, and the key
 * answers 504 at its deadline). Results and faults go to the list-key table, which every process
 * reads.
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { SearchSpec } from './searcher.js';

export interface SearchJob {
  key: string;
  spec: SearchSpec;
  deadlineAt: number;
  client: string;
}

export interface QueueSettings {
  redisUrl: string;
  /** Redis key prefix, so that several biomirror deployments can share one Redis. */
  prefix: string;
  /** Searches one process runs at once. */
  concurrency: number;
  /** How long a job is held by a process before another may take it over (ms). */
  lockMs: number;
}

const NAME = 'pubchem-search';

export class SearchQueue {
  private readonly queue: Queue<SearchJob>;
  private worker: Worker<SearchJob> | undefined;

  constructor(
    private readonly s: QueueSettings,
    private readonly log: Logger,
  ) {
    this.queue = new Queue<SearchJob>(NAME, { connection: { url: s.redisUrl }, prefix: s.prefix });
    this.queue.on('error', (err) => log.warn({ err }, 'search queue'));
  }

  async add(job: SearchJob): Promise<void> {
    // Job ids name the list key; BullMQ refuses ids that read as integers, which list keys are.
    await this.queue.add('search', job, { jobId: `listkey-${job.key}`, removeOnComplete: true, removeOnFail: true, attempts: 1 });
  }

  /** Starts taking searches off the queue in this process. */
  consume(run: (job: SearchJob) => Promise<void>): void {
    this.worker = new Worker<SearchJob>(NAME, async (j: Job<SearchJob>) => run(j.data), {
      connection: { url: this.s.redisUrl, maxRetriesPerRequest: null },
      prefix: this.s.prefix,
      concurrency: this.s.concurrency,
      lockDuration: this.s.lockMs,
      stalledInterval: Math.max(1000, Math.floor(this.s.lockMs / 2)),
      maxStalledCount: 1,
    });
    this.worker.on('error', (err) => this.log.warn({ err }, 'search queue worker'));
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}
