/**
 * Pull-through, as one onSend hook of the app (server/app.ts installs it before the services, so it
 * sees their answers first). Why onSend: the service answers first, so loaded data always wins; only
 * a miss (a 404 of a route the service has, a 200 the service says is its "not found", or any answer
 * when the data the request needs is not loaded; hints.ts) is looked up among kept answers and then,
 * with `--pull-through`, asked of the upstream. The hook
 * replaces status, headers and body of the miss; an onRequest lookup would be faster for kept
 * answers but would shadow data loaded after them.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Generations } from '../store/generations.js';
import type { Db } from '../store/db.js';
import { UpstreamClient, SELECTED_HEADERS, type Outcome } from './client.js';
import { formParams, requestKey, withoutIdentity, type ForwardBody, type Params, type RequestKey } from './keys.js';
import { SharedPace } from './pace.js';
import { NOT_FOUND_TTL_MS, PULL_THROUGH_DEFAULTS, type PullThroughSettings } from './settings.js';
import type { PulledRequest } from './hints.js';
import { KeptStore, type KeptAnswer } from './store.js';
import { VOLATILE_PARAMS, intervalMs, policyOf, publicTarget, type PulledService } from './upstreams.js';

export interface PullDeps {
  db: Db;
  generations: Generations;
  log: Logger;
  settings?: Partial<PullThroughSettings> | undefined;
}

/** Paths every service has that are this server's own (its API documents, its root page). */
const OWN_PATHS = /^\/(openapi(\.json|\/.*)?)?$/;

/** Headers the local miss may have set that describe its own body, not the one put in its place. */
const BODY_HEADERS = ['content-length', 'content-encoding', 'content-type', 'etag', ...SELECTED_HEADERS];

interface Plan {
  service: PulledService;
  host: string;
  key: RequestKey;
  url: string;
  method: 'GET' | 'POST';
  body?: { contentType: string; data: string };
  headers: Record<string, string>;
  interval: number;
  /** Why the answer is passed on but not kept, when it is not. */
  volatile?: string;
}

/** Local 200 answers larger than this are not read for a miss (an ESummary of 10,000 unknown UIDs is under 1 MiB). */
const MAX_MISS_BYTES = 4 * 1024 * 1024;

const pathOf = (url: string) => url.split('?')[0] ?? url;
const queryOf = (url: string): Params => {
  const i = url.indexOf('?');
  return i < 0 ? [] : [...new URLSearchParams(url.slice(i + 1))];
};

/** The request as the service's hints read it. */
function pulledRequest(req: FastifyRequest, within: string): PulledRequest {
  const body = req.body;
  const parsed = body !== null && typeof body === 'object' && !Buffer.isBuffer(body);
  const json =
    parsed &&
    String(req.headers['content-type'] ?? '')
      .toLowerCase()
      .startsWith('application/json');
  const form = parsed && !json ? formParams(body as Record<string, unknown>) : [];
  return { method: req.method as 'GET' | 'POST', path: within, params: [...queryOf(req.url), ...form], ...(json ? { json: body } : {}) };
}

/** A status worth keeping: answers (not 202, PubChem's "still working") and the 404 of a record. */
const keepable = (status: number) => (status >= 200 && status < 300 && status !== 202) || status === 404;

export class PullThrough {
  readonly settings: PullThroughSettings;
  private readonly client: UpstreamClient;
  private readonly inFlight = new Map<string, Promise<Outcome>>();

  private constructor(
    private readonly deps: PullDeps,
    private readonly store: KeptStore,
    private readonly services: readonly PulledService[],
    private readonly prefixed: boolean,
    fetchImpl?: typeof fetch,
  ) {
    this.settings = { ...PULL_THROUGH_DEFAULTS, ...deps.settings };
    // One pace per host for every process on this database (`serve --workers N`, shared PostgreSQL).
    const pace = new SharedPace(deps.db, (err) => deps.log.warn({ err }, 'pull-through: the shared pace is unavailable; pacing this process alone'));
    this.client = new UpstreamClient(this.settings, fetchImpl, pace);
  }

  static async create(deps: PullDeps, services: readonly PulledService[], prefixed: boolean, fetchImpl?: typeof fetch): Promise<PullThrough> {
    return new PullThrough(deps, await KeptStore.open(deps.db), services, prefixed, fetchImpl);
  }

  private readonly keptChecks = new Map<string, { at: number; value: Promise<boolean> }>();

  /**
   * Whether a service's answers in this process are its own alone: pull-through is off for it and
   * no upstream answer of it is kept. The kept store is read at most once a second, so that a
   * `cache import` beside a running server shows within a second.
   */
  inert(serviceId: string): Promise<boolean> {
    const service = this.services.find((s) => s.id === serviceId);
    if (!service?.publicUrls) return Promise.resolve(true);
    if (this.settings.enabled) return Promise.resolve(false);
    const hit = this.keptChecks.get(serviceId);
    if (hit && Date.now() - hit.at < 1000) return hit.value;
    const value = this.store.has(serviceId).then(
      (kept) => !kept,
      () => false,
    );
    this.keptChecks.set(serviceId, { at: Date.now(), value });
    return value;
  }

  private serviceAt(path: string): PulledService | undefined {
    return this.prefixed ? this.services.find((s) => path === s.mount || path.startsWith(`${s.mount}/`)) : this.services[0];
  }

  /**
   * Nothing loaded for this request: a dataset it needs (as the service names them) has no load,
   * or, when it names none, none of the datasets it serves has. A service without datasets of its
   * own serves its `dataOf`'s, or else those of the services of its first mount segment (the RCSB
   * hosts beside the Data API).
   */
  private async empty(service: PulledService, req: () => PulledRequest): Promise<boolean> {
    const g = this.deps.generations;
    const needs = service.pullThrough?.needs?.(req());
    if (needs?.length) {
      const owner = service.dataOf ?? service.id;
      for (const d of needs) if ((await g.active(owner, d)) === undefined) return true;
      return false;
    }
    const top = service.mount.split('/')[1];
    const owners = service.datasets.length ? [service] : this.services.filter((s) => s.datasets.length > 0 && (service.dataOf ? s.id === service.dataOf : s.mount.split('/')[1] === top));
    if (!owners.length) return false;
    for (const s of owners) for (const d of s.datasets) if ((await g.active(s.id, d.name)) !== undefined) return false;
    return true;
  }

  /** Whether the service says this local 200 answer holds none of the records asked for. */
  private saysMissing(service: PulledService, req: () => PulledRequest, reply: FastifyReply, payload: unknown): boolean {
    const miss = service.pullThrough?.miss;
    if (!miss || reply.statusCode !== 200) return false;
    // A streamed answer is a file, never a miss; a miss is small, so a big answer is not read.
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload : undefined;
    if (body === undefined || body.length > MAX_MISS_BYTES) return false;
    return miss(req(), { contentType: String(reply.getHeader('content-type') ?? ''), body: body.toString() });
  }

  /** How the request goes upstream and under which key, or undefined when it never does. */
  private plan(req: FastifyRequest, service: PulledService, within: string): Plan | undefined {
    const target = publicTarget(service, within);
    if (!target) return undefined;
    const policy = policyOf(target.host);
    if (policy.privatePaths?.test(within)) return undefined;
    // Credentials mean private content (the protocol service's), never forwarded nor kept.
    if (req.headers.authorization !== undefined || req.headers.cookie !== undefined) return undefined;
    const query = queryOf(req.url);
    let body: ForwardBody | undefined;
    if (req.method === 'POST') {
      if (!policy.queryPosts?.test(target.publicUrl.pathname)) return undefined;
      const type = String(req.headers['content-type'] ?? '').toLowerCase();
      const parsed = req.body;
      if (parsed === null || typeof parsed !== 'object' || Buffer.isBuffer(parsed)) return undefined;
      if (type.startsWith('application/json')) body = { type: 'json', value: parsed };
      else if (type.startsWith('application/x-www-form-urlencoded')) body = { type: 'form', params: formParams(parsed as Record<string, unknown>) };
      else return undefined;
    }
    const all = [...query, ...(body?.type === 'form' ? body.params : [])];
    if (all.some(([k]) => k.toLowerCase() === 'access_token')) return undefined;

    const method = req.method as 'GET' | 'POST';
    const key = requestKey(method, service.id, target.publicUrl, query, body);
    const chained = this.settings.upstream !== undefined;
    const forwardQuery = withoutIdentity(query);
    const headers: Record<string, string> = {};
    const s = this.settings;
    // The user's NCBI identity goes to NCBI only, never to a chained biomirror.
    if (!chained && policy.identity === 'ncbi-params') {
      forwardQuery.push(['tool', 'biomirror']);
      if (s.ncbiEmail) forwardQuery.push(['email', s.ncbiEmail]);
      if (s.ncbiApiKey) forwardQuery.push(['api_key', s.ncbiApiKey]);
    }
    if (!chained && policy.identity === 'ncbi-header' && s.ncbiApiKey) headers['api-key'] = s.ncbiApiKey;
    if (chained) headers['x-request-id'] = String(req.id);
    const qs = forwardQuery.length ? `?${new URLSearchParams(forwardQuery).toString()}` : '';
    const base = chained ? `${(s.upstream as string).replace(/\/+$/, '')}${service.mount}${within}` : target.publicUrl.href;

    const volatileParam = all.find(([k, v]) => VOLATILE_PARAMS.has(k.toLowerCase()) && !(k.toLowerCase() === 'usehistory' && v.toLowerCase() !== 'y'));
    const volatile = volatileParam
      ? `its parameter ${volatileParam[0]} names state the upstream keeps for a while`
      : policy.volatilePaths?.test(target.publicUrl.pathname)
        ? 'its answer names state the upstream keeps for a while'
        : undefined;
    return {
      service,
      host: target.host,
      key,
      url: `${base}${qs}`,
      method,
      ...(body
        ? {
            body:
              body.type === 'json'
                ? { contentType: 'application/json', data: JSON.stringify(body.value) }
                : { contentType: 'application/x-www-form-urlencoded', data: new URLSearchParams(withoutIdentity(body.params)).toString() },
          }
        : {}),
      headers,
      interval: intervalMs(policy, !chained && !!s.ncbiApiKey && !!policy.identity, s.rates, target.host),
      ...(volatile ? { volatile } : {}),
    };
  }

  private call(plan: Plan): Promise<Outcome> {
    return this.client.call({ host: plan.host, url: plan.url, method: plan.method, body: plan.body, headers: plan.headers, intervalMs: plan.interval });
  }

  /** The Fastify onSend hook. */
  readonly onSend = async (req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const status = reply.statusCode;
    if ((req.method !== 'GET' && req.method !== 'POST') || (status !== 404 && (status < 200 || status >= 300))) return payload;
    // Only routes the service has: an address it does not serve stays its own 404.
    if (!req.routeOptions.url) return payload;
    const path = pathOf(req.url);
    const service = this.serviceAt(path);
    if (!service?.publicUrls) return payload;
    const within = this.prefixed ? path.slice(service.mount.length) || '/' : path;
    if (OWN_PATHS.test(within)) return payload;
    try {
      // Loaded data wins: a local answer other than "not found" stands, unless nothing it needs is
      // loaded or the service says the answer is its way of saying "not found".
      if (status !== 404) {
        let seen: PulledRequest | undefined;
        const request = () => (seen ??= pulledRequest(req, within));
        if (!(await this.empty(service, request)) && !this.saysMissing(service, request, reply, payload)) return payload;
      }
      const plan = this.plan(req, service, within);
      if (!plan) return payload;
      const out = await this.answer(req, reply, plan, payload);
      // A streamed local answer (a file) put aside is closed, not left open.
      if (out !== payload && payload instanceof Readable) payload.destroy();
      return out;
    } catch (err) {
      // Whatever fails here (a service's hint, the kept store, the upstream), the local answer
      // goes out as the service wrote it: pull-through never turns a request into a 500.
      req.log.error({ err, reqId: req.id, service: service.id }, 'pull-through failed');
      return payload;
    }
  };

  private async answer(req: FastifyRequest, reply: FastifyReply, plan: Plan, payload: unknown): Promise<unknown> {
    const kept = await this.store.get(plan.key.key);
    const stale = kept?.status === 404 && Date.now() - Date.parse(kept.fetchedAt) > NOT_FOUND_TTL_MS;
    if (kept && !(stale && this.settings.enabled)) return apply(reply, kept);
    if (!this.settings.enabled) return payload;

    const t0 = Date.now();
    let pending = this.inFlight.get(plan.key.key);
    if (!pending) {
      pending = this.call(plan);
      this.inFlight.set(plan.key.key, pending);
      void pending.finally(() => this.inFlight.delete(plan.key.key));
    }
    let outcome = await pending;
    // An answer too large to keep streams to one client: another asking at once asks again.
    let stream = outcome.kind === 'stream' ? outcome.take() : undefined;
    if (outcome.kind === 'stream' && !stream) {
      outcome = await this.call(plan);
      stream = outcome.kind === 'stream' ? outcome.take() : undefined;
    }
    this.deps.log.info({ reqId: req.id, service: plan.service.id, upstream: plan.host, status: outcome.status, ms: Date.now() - t0 }, 'pulled through');
    if (outcome.kind === 'failed') {
      if (kept) return apply(reply, kept);
      const e = plan.service.errors.badRequest(`Not loaded here, and the upstream failed: ${outcome.message} (biomirror pull-through)`, outcome.status, pathOf(req.url));
      for (const h of BODY_HEADERS) reply.removeHeader(h);
      // The gateway status whatever the catalogue gives its bad requests (PubChem's are all 400).
      reply.code(outcome.status).type(e.contentType);
      for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      if (outcome.retryAfterSeconds !== undefined) reply.header('retry-after', String(outcome.retryAfterSeconds));
      return typeof e.body === 'string' || Buffer.isBuffer(e.body) ? e.body : JSON.stringify(e.body);
    }
    const [, host, at] = /^upstream (\S+) (\S+)$/.exec(outcome.source ?? '') ?? [];
    const provenance = { upstream: host ?? new URL(plan.url).host, fetchedAt: at ?? new Date().toISOString() };
    if (outcome.kind === 'stream') return applyStream(reply, outcome, provenance, stream as Readable);
    const answer: KeptAnswer = {
      key: plan.key.key,
      service: plan.service.id,
      request: plan.key.text,
      status: outcome.status,
      contentType: outcome.contentType,
      headers: outcome.headers,
      body: outcome.body,
      ...provenance,
    };
    if (keepable(answer.status) && !plan.volatile) {
      // Kept once per request; an answer fetched twice at once is written twice, the same row.
      await this.store.put(answer).catch((err: unknown) => this.deps.log.warn({ err, service: plan.service.id }, 'could not keep an upstream answer'));
    }
    return apply(reply, answer);
  }
}

type Head = Pick<KeptAnswer, 'status' | 'contentType' | 'headers' | 'upstream' | 'fetchedAt'>;

function applyHead(reply: FastifyReply, a: Head): void {
  for (const h of BODY_HEADERS) reply.removeHeader(h);
  reply.code(a.status);
  if (a.contentType) reply.header('content-type', a.contentType);
  for (const [k, v] of Object.entries(a.headers)) reply.header(k, v);
  reply.header('x-biomirror-source', `upstream ${a.upstream} ${a.fetchedAt}`);
}

/** Puts an upstream answer in place of the local miss, with its provenance. */
function apply(reply: FastifyReply, a: KeptAnswer): Buffer {
  applyHead(reply, a);
  return a.body;
}

/** The same for an answer too large to keep: its body passed on as it arrives. */
function applyStream(reply: FastifyReply, o: Omit<Head, 'upstream' | 'fetchedAt'>, provenance: Pick<Head, 'upstream' | 'fetchedAt'>, body: Readable): Readable {
  applyHead(reply, { status: o.status, contentType: o.contentType, headers: o.headers, ...provenance });
  return body;
}
