import { existsSync, readFileSync } from 'node:fs';
import type { RuleOverride } from '../core/limits/limiter.js';
import { PULL_THROUGH_DEFAULTS, type PullThroughSettings } from '../core/pullthrough/settings.js';
import type { FaultSettings } from './faults.js';

export interface ServiceSettings {
  enabled?: boolean;
  port?: number;
  limits?: 'on' | 'off' | Record<string, RuleOverride>;
  /** Faults drawn at a rate on this service's answers (see docs/operations.md). */
  faults?: FaultSettings;
}

export interface Config {
  host: string;
  port: number;
  /** Also give every service a port of its own, with the upstream paths at its root. */
  portPerService: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Master switch of the rate limits (`--limits on`): off by default, a private mirror promises none. */
  limits: boolean;
  /** Honour the X-Biomirror-Fault request header (`--faults on`). */
  faults: boolean;
  /** Load each service's demo data when its dataset is empty. */
  demo: boolean;
  logLevel: string;
  /** Honour X-Forwarded-For when biomirror runs behind a proxy (rate limits are per client IP). */
  trustProxy: boolean;
  services: Record<string, ServiceSettings>;
  /** Asking the real services on a miss, and keeping their answers (docs/pull-through.md). */
  pullThrough: PullThroughSettings;
}

export const DEFAULT_CONFIG: Config = {
  host: '127.0.0.1',
  port: 8080,
  portPerService: false,
  dataDir: './data',
  databaseUrl: undefined,
  redisUrl: undefined,
  limits: false,
  faults: false,
  demo: true,
  logLevel: 'info',
  trustProxy: false,
  services: {},
  pullThrough: PULL_THROUGH_DEFAULTS,
};

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * A service's own port (`--port-per-service`): the configured one, else as far from the main port
 * as its default is from 8080, so that `--port 18100` moves them all (18101, 18102, ...) and two
 * servers with different `--port`s do not collide. Main port 0 (any free port) gives 0 for each;
 * undefined when the sum passes 65535.
 */
export function ownPort(config: Pick<Config, 'port' | 'services'>, s: { id: string; defaultPort: number }): number | undefined {
  const set = config.services[s.id]?.port;
  if (set !== undefined) return set;
  if (config.port === 0 || s.defaultPort <= 0) return 0;
  const p = config.port + s.defaultPort - DEFAULT_CONFIG.port;
  return p > 0 && p <= 65535 ? p : undefined;
}

/** Says where a service's own port comes from, for messages about it. */
export function ownPortOrigin(config: Pick<Config, 'port' | 'services'>, s: { id: string; defaultPort: number }): string {
  if (config.services[s.id]?.port !== undefined) return `set by services.${s.id}.port in the config file`;
  if (config.port === 0 || s.defaultPort <= 0) return `--port ${config.port}`;
  return `--port ${config.port} + ${s.defaultPort - DEFAULT_CONFIG.port}`;
}

function onOff(value: string, what: string): boolean {
  if (['on', 'true', '1', 'yes'].includes(value.toLowerCase())) return true;
  if (['off', 'false', '0', 'no'].includes(value.toLowerCase())) return false;
  throw new ConfigError(`${what} must be on or off, not "${value}"`);
}

function port(value: unknown, what: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${what} must be a port number, not "${String(value)}"`);
  return n;
}

/** Reads a JSON config file; its keys are those of Config. */
export function readConfigFile(path: string): Partial<Config> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(`config file ${path} must hold a JSON object`);
  const c = raw as Record<string, unknown>;
  const known = new Set(Object.keys(DEFAULT_CONFIG));
  for (const k of Object.keys(c)) if (!known.has(k)) throw new ConfigError(`config file ${path}: unknown setting "${k}"`);
  const out: Partial<Config> = { ...(c as Partial<Config>) };
  if (c.port !== undefined) out.port = port(c.port, 'port');
  if (typeof c.limits === 'string') out.limits = onOff(c.limits, 'limits');
  if (typeof c.faults === 'string') out.faults = onOff(c.faults, 'faults');
  return out;
}

export interface Flags {
  host?: string | undefined;
  port?: string | undefined;
  portPerService?: boolean | undefined;
  dataDir?: string | undefined;
  limits?: string | undefined;
  faults?: string | undefined;
  demo?: boolean | undefined;
  config?: string | undefined;
  logLevel?: string | undefined;
  /** `--pull-through` (true) or `--offline` (false). */
  pullThrough?: boolean | undefined;
  upstream?: string | undefined;
  /** Seconds. */
  upstreamTimeout?: string | undefined;
}

function upstreamUrl(value: string, what: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ConfigError(`${what} must be a URL (another biomirror's base URL), not "${value}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`${what} must be an http or https URL, not "${value}"`);
  return value.replace(/\/+$/, '');
}

function seconds(value: string, what: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${what} must be a number of seconds above 0, not "${value}"`);
  return Math.round(n * 1000);
}

/** Defaults, then the config file, then the environment, then command-line flags. */
export function resolveConfig(flags: Flags, env: NodeJS.ProcessEnv = process.env): Config {
  const file = flags.config ?? env.BIOMIRROR_CONFIG ?? (existsSync('biomirror.config.json') ? 'biomirror.config.json' : undefined);
  const c: Config = { ...DEFAULT_CONFIG, services: {} };
  if (file) Object.assign(c, readConfigFile(file));
  // A config file's "pullThrough" sets some of its keys; the rest keep their defaults.
  c.pullThrough = { ...PULL_THROUGH_DEFAULTS, ...c.pullThrough };
  if (env.BIOMIRROR_PULL_THROUGH) c.pullThrough.enabled = onOff(env.BIOMIRROR_PULL_THROUGH, 'BIOMIRROR_PULL_THROUGH');
  if (env.BIOMIRROR_PULL_THROUGH_UPSTREAM) c.pullThrough.upstream = upstreamUrl(env.BIOMIRROR_PULL_THROUGH_UPSTREAM, 'BIOMIRROR_PULL_THROUGH_UPSTREAM');
  if (env.BIOMIRROR_UPSTREAM_TIMEOUT) c.pullThrough.timeoutMs = seconds(env.BIOMIRROR_UPSTREAM_TIMEOUT, 'BIOMIRROR_UPSTREAM_TIMEOUT');
  if (env.NCBI_API_KEY) c.pullThrough.ncbiApiKey = env.NCBI_API_KEY;
  if (env.NCBI_EMAIL) c.pullThrough.ncbiEmail = env.NCBI_EMAIL;
  if (env.HOST) c.host = env.HOST;
  if (env.PORT) c.port = port(env.PORT, 'PORT');
  if (env.DATA_DIR) c.dataDir = env.DATA_DIR;
  if (env.DATABASE_URL) c.databaseUrl = env.DATABASE_URL;
  if (env.REDIS_URL) c.redisUrl = env.REDIS_URL;
  if (env.BIOMIRROR_LIMITS) c.limits = onOff(env.BIOMIRROR_LIMITS, 'BIOMIRROR_LIMITS');
  if (env.BIOMIRROR_FAULTS) c.faults = onOff(env.BIOMIRROR_FAULTS, 'BIOMIRROR_FAULTS');
  if (env.BIOMIRROR_TRUST_PROXY) c.trustProxy = onOff(env.BIOMIRROR_TRUST_PROXY, 'BIOMIRROR_TRUST_PROXY');
  if (env.LOG_LEVEL) c.logLevel = env.LOG_LEVEL;
  if (flags.host) c.host = flags.host;
  if (flags.port !== undefined) c.port = port(flags.port, '--port');
  if (flags.portPerService) c.portPerService = true;
  if (flags.dataDir) c.dataDir = flags.dataDir;
  if (flags.limits !== undefined) c.limits = onOff(flags.limits, '--limits');
  if (flags.faults !== undefined) c.faults = onOff(flags.faults, '--faults');
  if (flags.demo === false) c.demo = false;
  if (flags.logLevel) c.logLevel = flags.logLevel;
  if (flags.pullThrough !== undefined) c.pullThrough.enabled = flags.pullThrough;
  if (flags.upstream !== undefined) c.pullThrough.upstream = upstreamUrl(flags.upstream, '--upstream');
  if (flags.upstreamTimeout !== undefined) c.pullThrough.timeoutMs = seconds(flags.upstreamTimeout, '--upstream-timeout');
  if (c.pullThrough.upstream !== undefined) c.pullThrough.upstream = upstreamUrl(c.pullThrough.upstream, 'pullThrough.upstream');
  for (const [id, s] of Object.entries(c.services)) {
    if (s.port !== undefined) s.port = port(s.port, `services.${id}.port`);
  }
  return c;
}
