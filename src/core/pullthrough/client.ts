/**
 * The client toward the upstreams: one queue per upstream host that spaces requests evenly at the
 * host's rate (upstreams.ts), a time limit per answer, and on 429 or 503 a wait of the upstream's
 * Retry-After (bounded) before trying again, which also holds back the rest of that host's queue.
 * The turns are taken from a Pace (pace.ts): the database's, shared by every process that uses it.
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { MemoryPace, type Pace } from './pace.js';
import type { PullThroughSettings } from './settings.js';
import { projectPath } from '../files/project.js';

function version(): string {
  try {
    // src/core/pullthrough and dist/core/pullthrough are both three folders below package.json.
    return (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version?: string }).version ?? '0';
  } catch {
    return '0';
  }
}

export const USER_AGENT = `biomirror/${version()} (pull-through)`;

export interface UpstreamCall {
  /** The real host the request stands for: its rate, and the answer's provenance. */
  host: string;
  /** Where it goes: the real host, or the `--upstream` biomirror. */
  url: string;
  method: 'GET' | 'POST';
  body?: { contentType: string; data: string } | undefined;
  headers: Record<string, string>;
  /** Milliseconds between two requests of this queue. */
  intervalMs: number;
}

interface AnswerMeta {
  status: number;
  contentType: string | null;
  headers: Record<string, string>;
  source: string | null;
}

/**
 * An answer whole (`answer`), or one larger than can be kept (`stream`): passed on as it arrives,
 * never held whole in memory. Its stream can be taken once; a second taker gets undefined.
 */
export type Outcome =
  | ({ kind: 'answer'; body: Buffer } & AnswerMeta)
  | ({ kind: 'stream'; take: () => Readable | undefined } & AnswerMeta)
  | { kind: 'failed'; status: 502 | 503 | 504; message: string; retryAfterSeconds?: number };

/** Response headers kept with an answer, besides its content type (the rest describe this transfer). */
export const SELECTED_HEADERS = ['content-disposition', 'content-language', 'link', 'last-modified'];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After in milliseconds: seconds or an HTTP date. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The start of a body: whole when `rest` is absent, else the first chunks past the bound and the reader of the rest. */
interface Read {
  chunks: Buffer[];
  size: number;
  rest?: ReadableStreamDefaultReader<Uint8Array>;
}

async function readUpTo(res: Response, bound: number, alive: () => void): Promise<Read> {
  const read: Read = { chunks: [], size: 0 };
  if (!res.body) return read;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return read;
    alive();
    read.chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    read.size += value.byteLength;
    if (read.size > bound) return { ...read, rest: reader };
  }
}

/**
 * The chunks read so far, then the rest as it arrives; the upstream is let go if the client goes.
 * The silence limit runs only while waiting for the upstream, not while a slow client reads.
 */
function passOn(read: Read, alive: () => void, quiet: () => void): () => Readable {
  const reader = read.rest as ReadableStreamDefaultReader<Uint8Array>;
  async function* chunks(): AsyncGenerator<Buffer> {
    quiet();
    try {
      yield* read.chunks;
      read.chunks = [];
      for (;;) {
        alive();
        const { done, value } = await reader.read();
        quiet();
        if (done) return;
        yield Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      }
    } finally {
      quiet();
      void reader.cancel().catch(() => undefined);
    }
  }
  return () => Readable.from(chunks(), { objectMode: false });
}

function once<T>(make: () => T): () => T | undefined {
  let taken = false;
  return () => {
    if (taken) return undefined;
    taken = true;
    return make();
  };
}

export class UpstreamClient {
  constructor(
    private readonly settings: Pick<PullThroughSettings, 'timeoutMs' | 'retries' | 'maxRetryWaitMs' | 'maxQueueWaitMs' | 'maxKeptBytes'>,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly pace: Pace = new MemoryPace(),
  ) {}

  async call(c: UpstreamCall): Promise<Outcome> {
    const queue = `${new URL(c.url).origin} ${c.host}`;
    const who = c.host === new URL(c.url).host ? c.host : `${c.host} (through ${new URL(c.url).host})`;
    for (let attempt = 0; ; attempt++) {
      // A turn further away than the bound is refused, so a flood of misses is told to come back.
      const refused = await this.pace.turn(queue, c.intervalMs, this.settings.maxQueueWaitMs);
      if (refused !== undefined) {
        return { kind: 'failed', status: 503, message: `too many requests are waiting for the upstream ${who}`, retryAfterSeconds: Math.ceil(refused / 1000) };
      }
      // The time limit is one of silence: it starts again with the headers and with every chunk.
      const ac = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const alive = () => {
        clearTimeout(timer);
        timer = setTimeout(() => ac.abort(), this.settings.timeoutMs);
      };
      const quiet = () => clearTimeout(timer);
      let res: Response;
      let read: Read;
      try {
        alive();
        res = await this.fetchImpl(c.url, {
          method: c.method,
          headers: { 'user-agent': USER_AGENT, ...c.headers, ...(c.body ? { 'content-type': c.body.contentType } : {}) },
          ...(c.body ? { body: c.body.data } : {}),
          signal: ac.signal,
          redirect: 'follow',
        });
        alive();
        // A refusal or a failure is not read: only its status and headers matter.
        if (res.status === 429 || res.status >= 500) {
          quiet();
          await res.body?.cancel().catch(() => undefined);
          read = { chunks: [], size: 0 };
        } else {
          read = await readUpTo(res, this.settings.maxKeptBytes, alive);
          if (!read.rest) quiet();
        }
      } catch (err) {
        quiet();
        const e = err as Error;
        if (e.name === 'TimeoutError' || e.name === 'AbortError') {
          return { kind: 'failed', status: 504, message: `the upstream ${who} did not answer within ${Math.round(this.settings.timeoutMs / 100) / 10} s` };
        }
        const cause = (e.cause as Error | undefined)?.message ?? e.message;
        return { kind: 'failed', status: 502, message: `the upstream ${who} could not be reached (${cause})` };
      }
      if (res.status === 429 || res.status === 503) {
        const wait = retryAfterMs(res.headers.get('retry-after')) ?? 1000 * 2 ** attempt;
        await this.pace.holdBack(queue, wait);
        if (attempt >= this.settings.retries || wait > this.settings.maxRetryWaitMs) {
          const tries = attempt + 1;
          return {
            kind: 'failed',
            status: 503,
            message: `the upstream ${who} answered ${res.status} ${tries > 1 ? `${tries} times` : ''}`.trimEnd(),
            retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)),
          };
        }
        await sleep(wait);
        continue;
      }
      if (res.status >= 500) return { kind: 'failed', status: 502, message: `the upstream ${who} answered ${res.status}` };
      const headers: Record<string, string> = {};
      for (const h of SELECTED_HEADERS) {
        const v = res.headers.get(h);
        if (v !== null) headers[h] = v;
      }
      // A biomirror upstream that kept the answer itself says where it came from.
      const meta = { status: res.status, contentType: res.headers.get('content-type'), headers, source: res.headers.get('x-biomirror-source') };
      if (!read.rest) return { kind: 'answer', ...meta, body: Buffer.concat(read.chunks, read.size) };
      return { kind: 'stream', ...meta, take: once(passOn(read, alive, quiet)) };
    }
  }
}
