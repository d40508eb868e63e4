import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceModule } from '../services/types.js';
import { sendServiceError } from '../core/http/send.js';

/**
 * Faults on demand, for client developers: the exact failures the public services send (their own
 * 429 and 503 bodies with Retry-After), slow answers, answers that never come, dropped connections
 * and bodies cut short, so that retry code can be tested against them. Asked for per request with
 * the `X-Biomirror-Fault` header (when `faults` is on) or drawn at a rate per service (config).
 */
export const FAULT_KINDS = ['429', '503', 'slow', 'timeout', 'drop', 'truncate'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSettings {
  /** Share of requests that get a fault (0..1). */
  rate: number;
  /** Which faults are drawn from; all of them when empty or absent. */
  kinds?: FaultKind[];
  /** Delay of a slow answer, and how long a timeout holds the connection before dropping it. */
  ms?: number;
  /** Retry-After of the 429 and 503 answers, in seconds. */
  retryAfter?: number;
}

export interface Fault {
  kind: FaultKind;
  ms: number;
  retryAfter: number;
}

export const FAULT_HEADER = 'x-biomirror-fault';
const MAX_MS = 300_000;
const DEFAULT_SLOW_MS = 2_000;
const DEFAULT_TIMEOUT_MS = 120_000;

/** `503`, `429;retry-after=7`, `slow;ms=1500`, `timeout;ms=30000`, `drop`, `truncate`; undefined if not one. */
export function parseFaultHeader(value: string): Fault | undefined {
  const [head = '', ...opts] = value.split(';').map((s) => s.trim());
  const kind = head.toLowerCase();
  if (!(FAULT_KINDS as readonly string[]).includes(kind)) return undefined;
  const params = new Map<string, string>();
  for (const o of opts) {
    const [k, v] = o.split('=');
    if (k && v !== undefined) params.set(k.trim().toLowerCase(), v.trim());
  }
  return fault(kind as FaultKind, num(params.get('ms')), num(params.get('retry-after')));
}

function num(v: string | undefined): number | undefined {
  if (v === undefined || !/^\d{1,9}$/.test(v)) return undefined;
  return Number(v);
}

function fault(kind: FaultKind, ms?: number, retryAfter?: number): Fault {
  const wait = Math.min(MAX_MS, ms ?? (kind === 'timeout' ? DEFAULT_TIMEOUT_MS : DEFAULT_SLOW_MS));
  return { kind, ms: wait, retryAfter: Math.max(0, Math.min(86_400, retryAfter ?? 1)) };
}

/** A fault drawn at the configured rate, or none. */
export function drawFault(s: FaultSettings, random = Math.random): Fault | undefined {
  if (!(s.rate > 0) || random() >= s.rate) return undefined;
  const kinds = s.kinds?.length ? s.kinds : FAULT_KINDS;
  const kind = kinds[Math.floor(random() * kinds.length)] ?? '503';
  return fault(kind, s.ms, s.retryAfter);
}

const pending = new WeakMap<FastifyRequest, Fault>();
const slowed = new WeakMap<FastifyRequest, number>();

/** Installs the fault hooks on one service's scope. */
export function installFaults(scope: FastifyInstance, service: ServiceModule, opts: { header: boolean; settings: FaultSettings | undefined }): void {
  const prefix = scope.prefix;
  scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const asked = opts.header ? req.headers[FAULT_HEADER] : undefined;
    const f = typeof asked === 'string' ? parseFaultHeader(asked) : opts.settings ? drawFault(opts.settings) : undefined;
    if (!f) return undefined;
    reply.header('x-biomirror-fault', f.kind);
    const path = (req.url.split('?')[0] ?? '').slice(prefix.length) || '/';
    switch (f.kind) {
      case '429': {
        reply.header('Retry-After', String(f.retryAfter));
        const subject = { ip: req.ip, path, method: req.method, query: {}, body: {}, headers: req.headers };
        return sendServiceError(reply, service.errors.rateLimited(f.retryAfter, req.url.split('?')[0] ?? '', { rule: undefined, subject }));
      }
      case '503': {
        reply.header('Retry-After', String(f.retryAfter));
        const e = service.errors.unavailable?.(f.retryAfter, req.url.split('?')[0] ?? '') ?? service.errors.badRequest('Service temporarily unavailable', 503, req.url.split('?')[0] ?? '');
        return sendServiceError(reply, e);
      }
      case 'slow':
        // Held once the request is accepted (past the limits), as an upstream that is slow to answer.
        slowed.set(req, f.ms);
        return undefined;
      case 'timeout':
        // No answer at all: the connection is held, then dropped, as a stalled upstream does.
        await new Promise((r) => setTimeout(r, f.ms));
        req.raw.socket?.destroy();
        return reply.hijack();
      case 'drop':
        req.raw.socket?.destroy();
        return reply.hijack();
      case 'truncate':
        pending.set(req, f);
        return undefined;
    }
  });
  scope.addHook('preHandler', async (req: FastifyRequest) => {
    const ms = slowed.get(req);
    if (ms === undefined) return;
    slowed.delete(req);
    await new Promise((r) => setTimeout(r, ms));
  });
  scope.addHook('onSend', async (req, reply, payload) => {
    if (!pending.has(req)) return payload;
    pending.delete(req);
    const whole = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
    if (!whole || whole.length < 2) return payload;
    // The whole length is announced and half of it sent; then the connection is cut.
    reply.header('content-length', String(whole.length));
    const half = whole.subarray(0, Math.floor(whole.length / 2));
    let sent = false;
    return new Readable({
      read() {
        if (sent) return;
        sent = true;
        this.push(half);
        setImmediate(() => this.destroy(new Error('truncated on purpose')));
      },
    });
  });
}
