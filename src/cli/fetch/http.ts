/**
 * Requests to the upstreams: one user agent, the caller's abort signal, a time limit on silence,
 * and failures turned into messages that name the address and what went wrong.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { FetchError, RetryableError } from './errors.js';

// Some upstreams refuse requests without a user agent they can tell apart (a library's default).
export const USER_AGENT = 'biomirror/0.1 (bulk download)';

/** Why a request never got an answer, in words. */
function reason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as { code?: string }).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return 'no route to the host';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection dropped';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'timed out';
    default:
      return cause?.message ?? (err as Error).message ?? String(err);
  }
}

/**
 * A host name that does not resolve, or an address with no route to it, does not pass with time
 * (a machine without a network, a mistyped upstream): said at once, not after minutes of retries.
 * Refused connections, resets and timeouts are retried.
 */
const LASTING = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

export function unreachable(url: string, err: unknown): FetchError {
  const code = (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
  const message = `cannot reach ${new URL(url).origin}: ${reason(err)} (${url})`;
  if (code && LASTING.has(code)) return new FetchError(`${message}; is this machine on a network that reaches it? (an upstream's address is set with --upstream or BIOMIRROR_UPSTREAM_<NAME>)`);
  return new RetryableError(message);
}

/** The error for an answer that is not the one asked for; 5xx and 429 are worth retrying. */
export function statusError(url: string, res: Response): FetchError {
  const what = `${url}: the upstream answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
  if (res.status === 429 || res.status >= 500) {
    const after = Number(res.headers.get('retry-after'));
    return new RetryableError(what, Number.isFinite(after) && after > 0 ? Math.min(after, 300) * 1000 : undefined);
  }
  if (res.status === 404 || res.status === 410) return new FetchError(`${what} (no such file: the upstream may have moved it)`);
  return new FetchError(what);
}

export interface HttpOptions {
  signal?: AbortSignal;
  /** Longest silence (no headers, no body bytes) before a request is given up, in milliseconds. */
  idleMs?: number;
  /** Shortest time between the starts of two requests, in milliseconds: the upstream's published pace. */
  spacingMs?: number;
  /** Told of each retry of a small answer (a listing, a checksum, an API page). */
  onRetry?: (err: Error, waitMs: number) => void;
}

/** Attempts after the first, for what is worth retrying (BIOMIRROR_FETCH_RETRIES, 5). */
export const retries = () => Number(process.env.BIOMIRROR_FETCH_RETRIES ?? 5);

export class Http {
  readonly signal: AbortSignal;
  readonly idleMs: number;
  private spacingMs: number;
  private next = 0;
  private readonly onRetry: ((err: Error, waitMs: number) => void) | undefined;

  constructor(opts: HttpOptions = {}) {
    this.signal = opts.signal ?? new AbortController().signal;
    this.idleMs = opts.idleMs ?? Number(process.env.BIOMIRROR_FETCH_IDLE_MS ?? 60_000);
    this.spacingMs = opts.spacingMs ?? 0;
    this.onRetry = opts.onRetry;
  }

  /** Paces later requests (an API's published limit); never faster than asked before. */
  pace(spacingMs: number): void {
    this.spacingMs = Math.max(this.spacingMs, spacingMs);
  }

  private async wait(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.next);
    this.next = at + this.spacingMs;
    if (at > now) await sleep(at - now, undefined, { signal: this.signal });
  }

  /**
   * A GET whose answer is returned whatever its status. `watch` is called with a function to call
   * whenever bytes arrive, so a body that stops flowing is given up too.
   */
  async get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ res: Response; alive: () => void; done: () => void }> {
    await this.wait();
    const ac = new AbortController();
    const onAbort = () => ac.abort(this.signal.reason);
    this.signal.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => ac.abort(new Error(`no data for ${Math.round(this.idleMs / 1000)} s`)), this.idleMs);
    };
    const done = () => {
      clearTimeout(timer);
      this.signal.removeEventListener('abort', onAbort);
    };
    alive();
    try {
      const res = await fetch(url, { method, headers: { 'user-agent': USER_AGENT, ...headers }, signal: ac.signal, redirect: 'follow' });
      alive();
      return { res, alive, done };
    } catch (err) {
      done();
      if (this.signal.aborted) throw this.signal.reason instanceof Error ? this.signal.reason : new Error('stopped');
      if (ac.signal.aborted) throw new RetryableError(`${url}: ${(ac.signal.reason as Error).message}`);
      throw unreachable(url, err);
    }
  }

  /** A small answer as text (a listing, an .md5 file, an API page); anything but 200 is an error, retried where worth it. */
  text(url: string, headers: Record<string, string> = {}): Promise<string> {
    return withRetries(() => this.textOnce(url, headers), { retries: retries(), signal: this.signal, ...(this.onRetry ? { onRetry: this.onRetry } : {}) });
  }

  private async textOnce(url: string, headers: Record<string, string>): Promise<string> {
    const { res, alive, done } = await this.get(url, headers);
    try {
      if (res.status !== 200) {
        await res.body?.cancel().catch(() => undefined);
        throw statusError(url, res);
      }
      const chunks: Buffer[] = [];
      if (res.body) {
        for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) {
          alive();
          chunks.push(Buffer.from(c));
        }
      }
      return Buffer.concat(chunks).toString('utf8');
    } catch (err) {
      if (err instanceof FetchError || this.signal.aborted) throw err;
      throw unreachable(url, err);
    } finally {
      done();
    }
  }

  async json(url: string, headers: Record<string, string> = {}): Promise<unknown> {
    const text = await this.text(url, { accept: 'application/json', ...headers });
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new FetchError(`${url}: the upstream's answer is not JSON (${text.slice(0, 80).replace(/\s+/g, ' ')}...)`);
    }
  }

  /** The size an address announces (HEAD), or undefined when it does not say. */
  async size(url: string): Promise<number | undefined> {
    const { res, done } = await this.get(url, {}, 'HEAD');
    done();
    if (res.status !== 200) throw statusError(url, res);
    const n = Number(res.headers.get('content-length'));
    return Number.isFinite(n) && res.headers.has('content-length') ? n : undefined;
  }
}

/** Runs `attempt` until it succeeds, retrying what is worth retrying with growing pauses. */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, opts: { retries: number; signal: AbortSignal; onRetry?: (err: Error, waitMs: number) => void }): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (opts.signal.aborted || !(err instanceof RetryableError) || n >= opts.retries) throw err;
      const waitMs = err.retryAfterMs ?? Math.min(30_000, 1000 * 2 ** n);
      opts.onRetry?.(err, waitMs);
      await sleep(waitMs, undefined, { signal: opts.signal });
    }
  }
}
