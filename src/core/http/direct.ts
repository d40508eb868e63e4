/**
 * Read-only JSON routes an in-process caller (the MCP tools) reaches without an HTTP request.
 *
 * A route declared with `jsonGet` has one reader: a function of the request's parameters, query and
 * origin that returns the answer (JSON text or a value). Its Fastify route runs the reader and
 * sends what it returns; `DirectRoutes.start` runs the same reader for a URL and hands the value
 * over as it is. `app.inject` costs more than most readers (light-my-request builds a request and
 * a response, Fastify runs its lifecycle, the answer is written as text and parsed back); the
 * shortcut leaves that out, and nothing else.
 *
 * The platform (server/app.ts) keeps the two ways equal: the shortcut answers only a local success
 * of a service that is ready, without injected faults, whose pull-through is off and that holds no
 * kept upstream answers; a call is admitted by the service's own limiter, as its route would be.
 * Anything else (an error, a miss, a redirect) goes the route's way, marked as admitted already so
 * that it is counted once: kept answers, pull-through, "no data loaded" and every error body then
 * come from the route itself. The shortcut runs no hook of the service's own scope: a service whose
 * hooks change its answers (PubChem's) declares its routes with `app.get`, not `jsonGet`.
 */
import { randomBytes } from 'node:crypto';
import FindMyWay from 'find-my-way';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ServiceError } from './errors.js';
import type { Query } from './params.js';
import { unsafePathReason } from './paths.js';

/** What a reader may read of a request. */
export interface RouteInput {
  params: Record<string, string>;
  query: Query;
  /** `protocol://host` as the client named this server, for links in the answer. */
  origin: string;
  /** The path and query as requested, with the mount. */
  url: string;
  accept: string | undefined;
  /** The request id, for an internal error's message. */
  id: string;
}

/**
 * An answer only the route can give (a redirect, headers beside the body): the route sends it; the
 * shortcut takes the route instead.
 */
export class RouteOnly {
  constructor(readonly send: (reply: FastifyReply) => FastifyReply) {}
}

/** A route's answer: JSON text (or its bytes) as it is sent, a value to serialise, or one only the route gives. */
export type JsonReader = (r: RouteInput) => Promise<string | Buffer | object | RouteOnly>;

const isText = (out: unknown): out is string | Buffer => typeof out === 'string' || Buffer.isBuffer(out);

const READER = 'biomirrorJsonReader';

function inputOf(req: FastifyRequest): RouteInput {
  return {
    params: req.params as Record<string, string>,
    query: req.query as Query,
    origin: `${req.protocol}://${req.host}`,
    url: req.url,
    accept: req.headers.accept,
    id: String(req.id),
  };
}

/**
 * A GET route answering JSON: the reader's text as it is, or its value serialised. `type` is the
 * content type, or a function of the request for a service whose type follows `Accept`.
 */
export function jsonGet(app: FastifyInstance, path: string, type: string | ((r: RouteInput) => string), reader: JsonReader): void {
  app.get(path, { config: { [READER]: reader } }, async (req, reply) => {
    const input = inputOf(req);
    const out = await reader(input);
    if (out instanceof RouteOnly) return out.send(reply);
    return reply.type(typeof type === 'string' ? type : type(input)).send(isText(out) ? out : JSON.stringify(out));
  });
}

/** How a service lets an in-process call in: whether the shortcut may answer now, and its limits. */
export interface DirectGate {
  /** False while the service loads, answers with faults, pulls through or holds kept answers. */
  open(): Promise<boolean>;
  /** The limiter's decision for this call, as the route's hook would make it. */
  admit(subject: DirectSubject): Promise<Admission>;
}

export interface DirectSubject {
  ip: string;
  /** Below the mount. */
  path: string;
  url: string;
  query: Query;
  headers: Record<string, string>;
}

export type Admission = { refused: ServiceError } | { refused?: undefined; finish(elapsedMs: number): void };

export type DirectOutcome =
  | { kind: 'answer'; value: unknown }
  | { kind: 'refused'; error: ServiceError }
  /** Take the route, with these headers (the admission mark), then call `done`. */
  | { kind: 'route'; headers: Record<string, string>; done(): void };

interface Store {
  reader?: JsonReader | undefined;
  service?: string | undefined;
  prefix: string;
}

/** The header by which a request taken after an admission by the shortcut is not admitted again. */
export const ADMITTED_HEADER = 'x-biomirror-admitted';

/** The headers `app.inject` sends with a tool's request, which a reader and the limiter see. */
const INJECT_HEADERS = { accept: 'application/json', host: 'localhost:80', 'user-agent': 'lightMyRequest' } as const;

export class DirectRoutes {
  /** Known only to this process: a request cannot claim an admission it did not get. */
  readonly secret = randomBytes(16).toString('hex');
  private readonly router = FindMyWay({ maxParamLength: 8192 });
  private readonly gates = new Map<string, DirectGate>();

  /**
   * Every GET route of the app, so that a URL finds the route Fastify would find (a route without a
   * reader is taken as a route). `serviceOf` names the service a path belongs to.
   */
  watch(app: FastifyInstance, serviceOf: (url: string) => { id: string; prefix: string } | undefined): void {
    app.addHook('onRoute', (opts: RouteOptions) => {
      const methods = Array.isArray(opts.method) ? opts.method : [opts.method];
      if (!methods.includes('GET')) return;
      const reader = (opts.config as Record<string, unknown> | undefined)?.[READER] as JsonReader | undefined;
      const owner = serviceOf(opts.url);
      const store: Store = { reader, service: owner?.id, prefix: owner?.prefix ?? '' };
      this.router.on('GET', opts.url, () => undefined, store);
    });
  }

  gate(service: string, gate: DirectGate): void {
    this.gates.set(service, gate);
  }

  isAdmitted(req: FastifyRequest): boolean {
    return req.headers[ADMITTED_HEADER] === this.secret;
  }

  /** Answers a GET of `url` by its route's reader, or says how to take the route; undefined: just take it. */
  async start(url: string, ip: string): Promise<DirectOutcome | undefined> {
    if (unsafePathReason(url)) return undefined;
    const found = this.router.find('GET', url);
    const store = found?.store as Store | undefined;
    if (!found || !store?.reader || !store.service) return undefined;
    const gate = this.gates.get(store.service);
    if (!gate || !(await gate.open())) return undefined;
    const path = url.split('?')[0] ?? url;
    const query = (found.searchParams ?? {}) as Query;
    const admission = await gate.admit({ ip, path: path.slice(store.prefix.length) || '/', url, query, headers: { ...INJECT_HEADERS } });
    if (admission.refused) return { kind: 'refused', error: admission.refused };
    const t0 = performance.now();
    const finish = () => admission.finish(performance.now() - t0);
    const route = (): DirectOutcome => ({ kind: 'route', headers: { [ADMITTED_HEADER]: this.secret }, done: finish });
    let out: Awaited<ReturnType<JsonReader>>;
    try {
      out = await store.reader({ params: found.params as Record<string, string>, query, origin: 'http://localhost:80', url, accept: INJECT_HEADERS.accept, id: 'in-process' });
    } catch {
      // The route says it as the service does (its error body, "no data loaded", a kept answer).
      return route();
    }
    if (out instanceof RouteOnly) return route();
    let value: unknown;
    try {
      value = isText(out) ? JSON.parse(out.toString()) : out;
    } catch {
      return route();
    }
    finish();
    return { kind: 'answer', value };
  }
}

const tables = new WeakMap<FastifyInstance, DirectRoutes>();

export function setDirectRoutes(app: FastifyInstance, routes: DirectRoutes): void {
  tables.set(app, routes);
}

export function directRoutesOf(app: FastifyInstance): DirectRoutes | undefined {
  return tables.get(app);
}
