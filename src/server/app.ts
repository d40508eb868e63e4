import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ServiceError } from '../core/http/errors.js';
import { MAX_JSON_DEPTH, jsonDepth } from '../core/http/json-depth.js';
import { pathPart, unsafePathReason } from '../core/http/paths.js';
import { redactUrl } from '../core/http/redact.js';
import { Limiter, configureRules, type Lease } from '../core/limits/limiter.js';
import type { Draw, LimitDecision, LimitRule, LimitStore, LimitSubject } from '../core/limits/policy.js';
import type { Db } from '../core/store/db.js';
import type { Generations } from '../core/store/generations.js';
import type { ServiceDirectory, ServiceModule } from '../services/types.js';
import { ownPort, type Config } from './config.js';
import { clientErrorHandler } from './client-errors.js';
import { installFaults } from './faults.js';
import { asset, landingPage, referencePage } from './landing.js';
import { openApiDocument, type RouteRecord } from './openapi.js';
import { registerLocalApp } from '../core/http/local-apps.js';
import { sendServiceError } from '../core/http/send.js';
import { serviceDirectory } from './service-directory.js';
import { statusReport } from './status.js';
import { PullThrough } from '../core/pullthrough/pull.js';
import { DirectRoutes, setDirectRoutes, type Admission, type DirectSubject } from '../core/http/direct.js';
import { mountMcp } from '../mcp/http.js';
import { LOADING_RETRY_SECONDS, loadingError, type Readiness } from './readiness.js';

export interface AppDeps {
  config: Config;
  db: Db;
  generations: Generations;
  limitStore: LimitStore;
  log: Logger;
  /** Where the data lives, for /health and /status. */
  storeDescription: string;
  /** Services still loading their data answer 503 (absent: every service is ready). */
  readiness?: Readiness;
}

const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f5f8b"/><text x="8" y="12.5" font-family="sans-serif" font-size="12" font-weight="bold" fill="#fff" text-anchor="middle">b</text></svg>';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const pathOf = (url: string): string => url.split('?')[0] ?? url;

/** A form body as an object; a repeated name gives an array, as Fastify does for query strings. */
export function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(body)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function baseUrl(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

const charges = new WeakMap<FastifyRequest, { draws: Draw[]; rules: LimitRule[] }>();
const leases = new WeakMap<FastifyRequest, Lease[]>();

/** What every service's mount shares: the directory of services, and the in-process shortcut with what it depends on. */
interface Mounting {
  services: ServiceDirectory;
  direct: DirectRoutes;
  pull: PullThrough;
}

/** A refused decision as the service says it: its 429 (or its own status) and the seconds to wait. */
function rateLimited(service: ServiceModule, decision: LimitDecision & { rules: LimitRule[] }, subject: LimitSubject, url: string): { error: ServiceError; seconds: number } {
  const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  const rule = decision.ruleIndex === undefined ? undefined : decision.rules[decision.ruleIndex];
  return { error: service.errors.rateLimited(seconds, pathOf(url), { rule, subject }), seconds };
}

/** Mounts one service: its limits, its own error and not-found answers, then its routes. */
async function mountService(scope: FastifyInstance, service: ServiceModule, deps: AppDeps, { services, direct, pull }: Mounting): Promise<void> {
  const settings = configureRules(service.limits, deps.config.services[service.id]?.limits, deps.config.limits);
  const limiter = new Limiter(service.id, settings, deps.limitStore);
  const prefix = scope.prefix;

  // A record not found by a service that has nothing loaded at all says so, and how to load it,
  // in the service's own error body (instead of "not found", which reads as a missing record).
  if (service.datasets.length) {
    const names = service.datasets.map((d) => d.name);
    const message =
      `No data is loaded for ${service.title} on this server (${names.length > 1 ? `its datasets ${names.join(', ')} are` : `its dataset ${names[0] as string} is`} empty): ` +
      `load the official files with \`biomirror fetch ${service.id}\` or \`biomirror ingest ${service.id} <files>\`, or the demo data with \`biomirror demo ${service.id}\`` +
      (service.publicUrls && !deps.config.pullThrough?.enabled ? ', or serve with `--pull-through` to ask the real service on a miss' : '');
    scope.addHook('onSend', async (req, reply, payload) => {
      // An upstream's own "not found", passed on by pull-through, stands as it is.
      if (reply.statusCode !== 404 || !req.routeOptions.url || reply.hasHeader('x-biomirror-source')) return payload;
      for (const d of service.datasets) if ((await deps.generations.active(service.id, d.name)) !== undefined) return payload;
      const e = service.errors.badRequest(message, 404, pathOf(req.url));
      reply.type(e.contentType);
      for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      return typeof e.body === 'string' || Buffer.isBuffer(e.body) ? e.body : JSON.stringify(e.body);
    });
  }

  // Until its data is loaded, a service answers 503 in its own error shape, saying so.
  const readiness = deps.readiness;
  if (readiness) {
    scope.addHook('onRequest', async (req, reply) => {
      if (!readiness.loading(service.id)) return undefined;
      reply.header('Retry-After', String(LOADING_RETRY_SECONDS));
      return sendServiceError(reply, loadingError(service, pathOf(req.url), readiness.report([service])[service.id]?.step));
    });
  }

  if (limiter.enabled) {
    const timed = settings.rules.some((r) => r.unit === 'ms');
    // After the body is read (a key may travel in a form body), before validation and the handler.
    scope.addHook('preValidation', async (req, reply) => {
      // Admitted (and charged) already by the in-process shortcut, which then took the route.
      if (direct.isAdmitted(req)) return undefined;
      const path = (req.url.split('?')[0] ?? '').slice(prefix.length) || '/';
      const body = req.body !== null && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
      const subject = {
        ip: req.ip,
        path,
        method: req.method,
        query: (req.query ?? {}) as Record<string, unknown>,
        body,
        headers: req.headers,
      };
      const decision = await limiter.check(subject);
      if (service.limitHeaders && decision.usage) {
        const usage = decision.rules.map((rule, i) => ({ rule, fraction: decision.usage?.[i] ?? 0 }));
        for (const [k, v] of Object.entries(service.limitHeaders(usage, decision.allowed))) reply.header(k, v);
      }
      if (!decision.allowed) {
        const { error, seconds } = rateLimited(service, decision, subject, req.url);
        reply.header('Retry-After', String(seconds));
        return sendServiceError(reply, error);
      }
      if (timed) charges.set(req, { draws: decision.draws, rules: decision.rules });
      if (decision.leases.length) leases.set(req, decision.leases);
      return undefined;
    });
    if (settings.rules.some((r) => r.unit === 'concurrent')) {
      // The in-flight slot is given back when the answer is out, or when the client goes away first.
      const giveBack = (req: FastifyRequest) => {
        const held = leases.get(req);
        if (!held) return;
        leases.delete(req);
        limiter.release(held).catch(() => undefined);
      };
      scope.addHook('onResponse', (req, _reply, done) => {
        giveBack(req);
        done();
      });
      scope.addHook('onRequestAbort', (req, done) => {
        giveBack(req);
        done();
      });
    }
    if (timed) {
      // Running-time budgets are charged once the answer is out, with the time it took.
      scope.addHook('onResponse', (req, reply, done) => {
        const c = charges.get(req);
        if (c) {
          charges.delete(req);
          limiter.charge(c.draws, c.rules, reply.elapsedTime).catch(() => undefined);
        }
        done();
      });
    }
  }

  const faults = deps.config.services[service.id]?.faults;
  const faulty = Boolean(deps.config.faults || faults);
  if (faulty) installFaults(scope, service, { header: deps.config.faults, settings: faults });

  // The in-process shortcut (core/http/direct.ts): only where the route would add nothing to a
  // local answer, and admitted by the same limiter as the route.
  direct.gate(service.id, {
    open: async () => !faulty && !readiness?.loading(service.id) && (await pull.inert(service.id)),
    admit: async (s: DirectSubject): Promise<Admission> => {
      if (!limiter.enabled) return { finish: () => undefined };
      const subject = { ip: s.ip, path: s.path, method: 'GET', query: s.query as Record<string, unknown>, body: {}, headers: s.headers };
      const decision = await limiter.check(subject);
      if (!decision.allowed) {
        const { error: e, seconds } = rateLimited(service, decision, subject, s.url);
        return { refused: new ServiceError(e.status, e.body, e.contentType, { ...e.headers, 'retry-after': String(seconds) }) };
      }
      return {
        finish: (elapsedMs) => {
          if (decision.leases.length) limiter.release(decision.leases).catch(() => undefined);
          if (decision.draws.length) limiter.charge(decision.draws, decision.rules, elapsedMs).catch(() => undefined);
        },
      };
    },
  });

  scope.setNotFoundHandler((req, reply) => {
    sendServiceError(reply, service.errors.routeNotFound(req.method, req.url.split('?')[0] ?? req.url));
  });

  scope.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ServiceError) return sendServiceError(reply, err);
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendServiceError(reply, service.errors.badRequest(err.message, status, pathOf(req.url)));
    req.log.error({ err, reqId: req.id, service: service.id }, 'request failed');
    return sendServiceError(reply, service.errors.internal(String(req.id), pathOf(req.url)));
  });

  // Every route the service registers, for its OpenAPI document.
  const routes: RouteRecord[] = [];
  scope.addHook('onRoute', (opts) => {
    for (const method of Array.isArray(opts.method) ? opts.method : [opts.method]) routes.push({ method, path: opts.url.slice(opts.prefix.length) || '/' });
  });
  await service.routes(scope, { db: deps.db, generations: deps.generations, log: deps.log.child({ service: service.id }), redisUrl: deps.config.redisUrl, services });
  scope.get('/openapi.json', async (req, reply) => reply.type('application/json').send(JSON.stringify(openApiDocument(service, routes, `${baseUrl(req)}${prefix}`))));
  // The real service's own documents first, their servers pointed here, so that "Try it out" works.
  const official = service.officialApis ?? [];
  official.forEach((doc, i) => {
    scope.get(`/openapi/official-${i}.json`, async (req, reply) => {
      const body = { ...(await doc.load()), servers: [{ url: `${baseUrl(req)}${prefix}${doc.serverPath}`, description: 'biomirror' }] };
      return reply.type('application/json').send(JSON.stringify(body));
    });
  });
  const specs = [
    ...official.map((doc, i) => ({ name: doc.name, url: `${prefix}/openapi/official-${i}.json` })),
    { name: `${service.title}: every route biomirror serves`, url: `${prefix}/openapi.json` },
  ];
  scope.get('/openapi', async (_req, reply) => reply.type('text/html; charset=utf-8').send(referencePage(service.title, specs)));
}

/**
 * The HTTP app. With `prefixed`, every service sits under its mount path on one port; without, the
 * single given service answers at the root, exactly as its upstream does.
 */
type ServiceAt = (path: string) => ServiceModule | undefined;

/** Fastify with this project's options: ids, limits, logging, and parse errors in each service's format. */
function createFastify(deps: AppDeps, serviceAt: ServiceAt): FastifyInstance {
  return Fastify({
    // Requests Node's parser refuses (a raw space or control byte in the path, an unknown method,
    // oversized headers) still get the error body of the service their path points into.
    clientErrorHandler: clientErrorHandler(serviceAt),
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    // One line per request is written by the onResponse hook below, with what this project needs.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: deps.config.trustProxy,
    bodyLimit: 16 * 1024 * 1024,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Identifiers in paths can be long (lists of ids, SMILES strings).
    routerOptions: { maxParamLength: 8192 },
    // Request logs carry the request id themselves (see onResponse); a child logger per request
    // would cost more than the line.
    childLoggerFactory: (logger) => logger,
    // A request the router cannot even read (a malformed percent-escape) still gets the error
    // format of the service its path points into.
    frameworkErrors: (err, req, reply) => {
      const path = req.url.split('?')[0] ?? '';
      const service = serviceAt(path);
      const e = service ? service.errors.badRequest(`Malformed request: ${err.message}`, 400, path) : new ServiceError(400, { error: 'bad request', message: err.message });
      // The onRequest hook does not run for these: the request id is set here.
      (reply as unknown as FastifyReply).header('x-request-id', req.id);
      return sendServiceError(reply as unknown as FastifyReply, e);
    },
  });
}

/** JSON (bounded nesting) and form bodies. */
function addBodyParsers(app: FastifyInstance): void {
  // JSON bodies: Fastify's own parser (which refuses prototype keys), behind a bound on nesting
  // that keeps any recursive walk of the value from overflowing the stack.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      const err = new Error(`JSON body nests deeper than ${MAX_JSON_DEPTH} levels`) as Error & { statusCode: number };
      err.statusCode = 400;
      done(err, undefined);
      return;
    }
    parseJson(req, text, done);
  });

  // HTML forms and many API clients (E-utilities, OAuth token requests, PUG REST) post
  // application/x-www-form-urlencoded bodies; they arrive as an object like a query string.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, parseForm(body as string));
  });
}

/** Shutdown of idle connections, the request id and path check on the way in, the log line on the way out. */
function addRequestHooks(app: FastifyInstance, deps: AppDeps, serviceAt: ServiceAt): void {
  // While shutting down, keep-alive connections are closed as soon as their in-flight request is
  // answered, so an idle client does not hold the server open.
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    sweeper = setInterval(() => app.server.closeIdleConnections(), 25);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    if (sweeper) clearInterval(sweeper);
    done();
  });
  // One structured line per request, with the id the client can quote back. Callback-style hooks
  // and no per-request child logger: this runs on every request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    // A path with dot segments or backslashes is refused before any service sees it (see paths.ts).
    const unsafe = unsafePathReason(req.url);
    if (unsafe) {
      const path = pathPart(req.url);
      const service = serviceAt(path);
      const message = `Malformed request: ${unsafe}`;
      sendServiceError(reply, service ? service.errors.badRequest(message, 400, path) : new ServiceError(400, { error: 'bad request', message }));
      return;
    }
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    deps.log.info(
      {
        reqId: req.id,
        method: req.method,
        url: redactUrl(req.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        ip: req.ip,
      },
      'request',
    );
    done();
  });
}

/** The platform's own routes: health, readiness, status, assets and, on the shared port, the landing page. */
function addPlatformRoutes(app: FastifyInstance, deps: AppDeps, services: readonly ServiceModule[], prefixed: boolean): void {
  const states = () => deps.readiness?.report(services) ?? Object.fromEntries(services.map((s) => [s.id, { state: 'ready' }]));
  // For load balancers: 200 once every service has its data, 503 (with each one's state) before.
  const ready = async (_req: FastifyRequest, reply: FastifyReply) => {
    const all = deps.readiness?.allReady() ?? true;
    if (!all) reply.code(503).header('Retry-After', String(LOADING_RETRY_SECONDS));
    return { status: all ? 'ready' : 'loading', services: states() };
  };
  const health = async () => ({
    status: 'ok',
    // Which process answered, when several share the port (`serve --workers N`).
    pid: process.pid,
    database: deps.db.dialect,
    services: services.map((s) => s.id),
    ready: deps.readiness?.allReady() ?? true,
    engines: Object.fromEntries(services.filter((s) => s.engines).map((s) => [s.id, s.engines?.()])),
  });
  const status = async (req: FastifyRequest) => statusReport(deps, services, prefixed ? baseUrl(req) : baseUrl(req), prefixed);

  app.get('/_biomirror/health', health);
  app.get('/_biomirror/ready', ready);
  app.get('/_biomirror/status', status);
  app.get<{ Params: { name: string } }>('/_biomirror/assets/:name', async (req, reply) => {
    const a = await asset(req.params.name);
    if (!a) return reply.code(404).send({ error: 'not found', message: `No asset ${req.params.name}` });
    return reply.type(a.type).header('cache-control', 'public, max-age=86400').send(a.body);
  });
  if (prefixed) {
    app.get('/health', health);
    app.get('/ready', ready);
    // Browsers ask for it on every page; a small mark rather than a 404 in their consoles.
    app.get('/favicon.ico', async (_req, reply) => reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON));
    app.get('/status', status);
    // A browser gets the landing page; every other client the JSON status, as before.
    app.get('/', async (req, reply) => {
      const report = await status(req);
      if (!/text\/html/.test(String(req.headers.accept ?? ''))) return report;
      return reply.type('text/html; charset=utf-8').send(landingPage(report, services, deps.config, baseUrl(req)));
    });
  }
}

export async function buildApp(deps: AppDeps, services: readonly ServiceModule[], prefixed: boolean): Promise<FastifyInstance> {
  const serviceAt: ServiceAt = (path) => (prefixed ? services.find((s) => path === s.mount || path.startsWith(`${s.mount}/`)) : services[0]);
  const app = createFastify(deps, serviceAt);
  addBodyParsers(app);
  addRequestHooks(app, deps, serviceAt);
  addPlatformRoutes(app, deps, services, prefixed);

  // Pull-through (and kept answers, served also offline): installed before the services, so that
  // it sees a service's miss before the service's own "no data loaded" answer rewrites it.
  const pull = await PullThrough.create({ db: deps.db, generations: deps.generations, log: deps.log, settings: deps.config.pullThrough }, services, prefixed);
  app.addHook('onSend', pull.onSend);

  // Every GET route, for the tools' in-process shortcut to find as Fastify finds them.
  const direct = new DirectRoutes();
  direct.watch(app, (url) => {
    const s = serviceAt(url);
    return s && { id: s.id, prefix: prefixed ? s.mount : '' };
  });
  setDirectRoutes(app, direct);

  const mounting: Mounting = { services: serviceDirectory(prefixed ? app : undefined), direct, pull };
  for (const service of services) {
    await app.register(async (scope) => mountService(scope, service, deps, mounting), { prefix: prefixed ? service.mount : '' });
  }
  // Agents' tools over the same routes (in-process), beside the services on the shared port.
  if (prefixed) mountMcp(app, deps);
  // Services read each other's answers through it (by URL of this server, never the network).
  const own = services[0];
  registerLocalApp({
    app,
    host: deps.config.host,
    configuredPort: prefixed || !own ? deps.config.port : (ownPort(deps.config, own) ?? 0),
    services: services.map((s) => ({ id: s.id, mount: s.mount })),
    prefixed,
  });

  // On a service's own port its not-found answer covers every path; on the shared port, paths
  // outside every mount get this one.
  if (prefixed) {
    app.setNotFoundHandler((req, reply) => {
      const path = req.url.split('?')[0];
      reply.code(404).send({ error: 'not found', message: `No service answers ${req.method} ${path}`, path });
    });
  }
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ServiceError) return sendServiceError(reply, err);
    const code = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    if (code === 500) req.log.error({ err, reqId: req.id }, 'request failed');
    return reply.code(code).send({ error: code === 500 ? 'internal error' : 'bad request', message: code === 500 ? `request ${req.id} failed` : err.message });
  });
  return app;
}
