import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ErrorCatalogue } from '../core/http/errors.js';
import type { LocalAnswer, LocalRequest } from '../core/http/local-apps.js';
import type { Dataset } from '../core/ingest/dataset.js';
import type { Sourced } from '../core/ingest/load.js';
import type { LimitRule } from '../core/limits/policy.js';
import type { PullHints } from '../core/pullthrough/hints.js';
import type { Db } from '../core/store/db.js';
import type { Generations } from '../core/store/generations.js';
import type { Migration } from '../core/store/migrations.js';

/** What a service's routes and handlers get from the platform. */
export interface ServiceContext {
  db: Db;
  generations: Generations;
  log: Logger;
  /** Redis, when configured: for state and work shared by several processes (queues). */
  redisUrl?: string | undefined;
  /**
   * The build's other services, reached in-process (filled for routes by the platform): a service
   * that hands requests on to the others (the sandbox proxy) uses it instead of the registry.
   */
  services?: ServiceDirectory;
}

/** The services of this build and the app of this process that answers for them all. */
export interface ServiceDirectory {
  /** Every service of the build, mounted in this process or not. */
  list(): Promise<readonly Pick<ServiceModule, 'id' | 'mount' | 'baseUrls'>[]>;
  /** Whether an app with every service under its mount answers in this process (an own-port app may start first). */
  available(): boolean;
  /** A request answered in-process by that app (path and query under the shared port); rejects when there is none. */
  request(r: LocalRequest): Promise<LocalAnswer>;
}

/**
 * A service as the registry lists it. The server mounts `routes` under `mount` (or at the root of a
 * port of its own) with the real upstream paths, so a client swaps only its base URL.
 */
export interface OfficialApi {
  name: string;
  load(): Promise<Record<string, unknown>>;
  serverPath: string;
}

/**
 * A service's operations described as data for its API reference (rendered as OpenAPI 3 by
 * server/openapi.ts), where the real service publishes no document of its own. Routes no operation
 * describes are still listed, as generated from their paths.
 */
export interface ApiReference {
  /** What the service is, said once for the whole document. */
  description: string;
  /** Groups of operations, by name, with what each holds. */
  tags?: Readonly<Record<string, string>>;
  operations: readonly OperationDoc[];
}

export interface OperationDoc {
  /** Below the mount, in OpenAPI's syntax: `/rest/pug/compound/{namespace}/{identifiers}/{output}`. */
  path: string;
  /** GET by default; `post` also takes the query parameters as a form body (`application/x-www-form-urlencoded`). */
  methods?: readonly ('get' | 'post')[];
  summary: string;
  description?: string;
  tag?: string;
  params?: readonly ParamDoc[];
  /** Content types of a 200 answer, the usual one first. */
  answers: readonly string[];
  /** What a load must carry for the example to answer (the demo data does not): a 404 until then. */
  needs?: string;
}

export interface ParamDoc {
  name: string;
  in: 'path' | 'query';
  description: string;
  /** `string` by default. */
  type?: 'string' | 'integer' | 'number' | 'boolean';
  enum?: readonly (string | number)[];
  /** Path parameters always are. */
  required?: boolean;
  default?: string | number | boolean;
  /** A value the demo data answers; "Try it out" starts with it (or with the default). */
  example?: string | number;
}

export interface ServiceModule {
  id: string;
  title: string;
  /** Path prefix on the shared port, e.g. `/clinicaltrials`. */
  mount: string;
  /** The spec's base-URL placeholders and their paths below the mount, e.g. trials_base_url -> /api/v2. */
  baseUrls: Readonly<Record<string, string>>;
  /** The real service's address each base URL stands for (none for biomirror's own services). */
  publicUrls?: Readonly<Record<string, string>>;
  /**
   * The service's own port under `serve --port-per-service` with the default main port (8080); with
   * another `--port` it moves by as much (see ownPort in server/config.ts), unless configured.
   */
  defaultPort: number;
  /**
   * OpenAPI documents the real service publishes, shown first on the service's API reference page
   * with their servers pointed at this server: `load` gives the document, `serverPath` is where
   * below the mount its paths start.
   */
  officialApis?: readonly OfficialApi[];
  /** Its operations described, for the reference generated from its routes (when it publishes none). */
  reference?: ApiReference;
  /** The spec's Limits table for this service. */
  limits: readonly LimitRule[];
  migrations: readonly Migration[];
  // Datasets differ in record type; the loader is generic over it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  datasets: readonly Dataset<Sourced<any>>[];
  /** For a service with no datasets of its own: the id of the service whose loads it serves. */
  dataOf?: string;
  errors: ErrorCatalogue;
  /** For pull-through: the datasets a request reads, and which 200 answers are misses (core/pullthrough/hints.ts). */
  pullThrough?: PullHints;
  /**
   * Headers reporting the rate-limit state on every response, where the upstream sends them
   * (PubChem's X-Throttling-Control). `fraction` is how much of each budget is in use (0..1).
   */
  limitHeaders?(usage: { rule: LimitRule; fraction: number }[], allowed: boolean): Record<string, string>;
  routes(app: FastifyInstance, ctx: ServiceContext): void | Promise<void>;
  /**
   * The state of the engines the service drives (RDKit, Mol*, external programs, the sandbox), for
   * `/health`: each by name, with at least `state` ('ok', 'unavailable', ...).
   */
  engines?(): Record<string, { state: string } & Record<string, unknown>>;
  /**
   * Commands of its own, run as `biomirror <service id> <command> [args...]` (e.g. the protocol
   * service's add-user). They get the opened store; they print and return an exit code.
   */
  commands?: Readonly<Record<string, ServiceCommand>>;
  /**
   * Runs once the demo data is loaded and before the server accepts requests (e.g. the demo
   * account's token, which must answer from the first request on).
   */
  prepare?(ctx: ServiceContext): Promise<void>;
  /**
   * Lines `serve` prints once the server is up (e.g. the demo account's credentials). `base` is
   * where the service answers on the shared port (origin and mount).
   */
  startupNotes?(ctx: ServiceContext, base?: string): Promise<string[]>;
}

export interface ServiceCommand {
  /** One line of usage, shown by `biomirror <service id>` without a command. */
  usage: string;
  run(args: string[], ctx: ServiceContext, out: (line: string) => void): Promise<number>;
}

/** Why a service takes no load of its own, said to a person (ingest and fetch refuse with it). */
export function loadsNothing(s: Pick<ServiceModule, 'id' | 'dataOf'>): string {
  return `${s.id} loads nothing of its own${s.dataOf ? `; it serves what ${s.dataOf} loads` : ''}`;
}

/** What a base URL stands for, said to a person: the real service's address, or biomirror's own. */
export function standsFor(s: Pick<ServiceModule, 'publicUrls'>, key: string): string {
  return s.publicUrls?.[key] ?? "biomirror's own";
}
