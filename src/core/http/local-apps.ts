/**
 * This process's HTTP apps, so that a service can read what another of this server's services
 * serves (a search query naming one of its files by URL) in-process, through the app, without
 * the network. A URL is this server's when its host names this machine (loopback, the configured
 * host, the machine's name, or the name the client reached it by) and its port is one the server
 * listens on: the shared port (services under their mounts) or a service's own port.
 */
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

interface LocalApp {
  app: FastifyInstance;
  /** The port from the configuration, for an app not listening (tests inject) or before it listens. */
  configuredPort: number;
  host: string;
  /** Services mounted: under their mounts (shared port), or the one at the root of its own port. */
  services: { id: string; mount: string }[];
  prefixed: boolean;
}

const apps = new Set<LocalApp>();

export function registerLocalApp(entry: LocalApp): void {
  apps.add(entry);
  entry.app.addHook('onClose', (_i, done) => {
    apps.delete(entry);
    done();
  });
}

function portOf(a: LocalApp): number {
  const addr = a.app.server.address() as AddressInfo | string | null;
  return addr && typeof addr === 'object' ? addr.port : a.configuredPort;
}

/** The port a service's own app listens on in this process, if it does (the number a main port 0 gave it). */
export function listeningOwnPort(service: string): number | undefined {
  for (const a of apps) {
    if (a.prefixed || a.services[0]?.id !== service) continue;
    const addr = a.app.server.address() as AddressInfo | string | null;
    if (addr && typeof addr === 'object') return addr.port;
  }
  return undefined;
}

const LOOPBACK = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0|\[::\])$/i;

function isOwnHost(host: string, a: LocalApp, also: string[]): boolean {
  const h = host.toLowerCase();
  return LOOPBACK.test(h) || h === a.host.toLowerCase() || h === hostname().toLowerCase() || also.some((x) => x.toLowerCase() === h);
}

export interface LocalTarget {
  app: FastifyInstance;
  /** Path and query as the app routes them. */
  path: string;
  /** The service the path lands in, if any. */
  service: string | undefined;
}

/** Where a URL of this server is answered, or undefined when the URL is not this server's. */
export function localTarget(url: URL, alsoHosts: string[] = []): LocalTarget | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  for (const a of apps) {
    if (portOf(a) !== port || !isOwnHost(url.hostname, a, alsoHosts)) continue;
    const path = url.pathname + url.search;
    const service = a.prefixed ? a.services.find((s) => url.pathname === s.mount || url.pathname.startsWith(`${s.mount}/`))?.id : a.services[0]?.id;
    return { app: a.app, path, service };
  }
  return undefined;
}

export interface LocalAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

/** A request for an app of this process, dispatched in-process. */
export interface LocalRequest {
  method: string;
  /** Path and query as the app routes them. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer;
}

/** A request answered by the app itself, without the network. */
export async function injectLocal(app: FastifyInstance, r: LocalRequest): Promise<LocalAnswer> {
  const res = await app.inject({ method: r.method as 'GET', url: r.url, headers: r.headers, ...(r.body && r.body.length > 0 ? { payload: r.body } : {}) });
  return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
}

/**
 * The app of this process with every service under its mount (the shared port), if one is up: a
 * service's own-port app reaches the others through it.
 */
export function sharedApp(): FastifyInstance | undefined {
  for (const a of apps) if (a.prefixed) return a.app;
  return undefined;
}

/** A GET answered by the app itself; rejects when it takes longer than `timeoutMs`. */
export async function getLocal(t: LocalTarget, headers: Record<string, string>, timeoutMs: number): Promise<LocalAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([injectLocal(t.app, { method: 'GET', url: t.path, headers }), late]);
  } finally {
    clearTimeout(timer);
  }
}
