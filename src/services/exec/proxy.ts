/**
 * The only way out of the sandbox: an HTTP proxy on a Unix socket that is bound into each run (and,
 * for unsandboxed runs, on a loopback port). It understands plain proxied requests and CONNECT
 * tunnels; tunnels to a mirrored host are ended here with a certificate from the service's CA, so
 * an unchanged script calling https://<public host>/... gets biomirror's answer. Requests are
 * handed to biomirror in-process (no socket, no port to find); every other host is refused.
 */
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createSecureContext, TLSSocket, type SecureContext } from 'node:tls';
import type { Logger } from 'pino';
import type { CertificateIssuer } from './ca.js';
import { rawPathOfAbsolute } from '../../core/http/paths.js';
import { ByteBudget } from '../../core/limits/byte-budget.js';
import { isProxiedHost, resolveRoute, SELF_HOST } from './hosts.js';

export interface ForwardedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export interface ForwardedResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

/** How a proxied request reaches biomirror's services; undefined while the app is not ready. */
export interface Gateway {
  mounts(): readonly string[];
  forward(req: ForwardedRequest): Promise<ForwardedResponse>;
}

const MAX_BODY = 16 * 1024 * 1024;
/** Request bodies held at once across every run's connections; beyond it requests wait unread. */
export const MAX_BUFFERED = 64 * 1024 * 1024;
/** How long a request waits for room before it is refused. Waiting holds a socket, not memory, and a
 * run's wall-clock limit ends its waits anyway; a short wait failed uploads queued behind slow ones. */
const BODY_WAIT_MS = 120_000;
/** How long a refused request's unread body is read and dropped so that its client sees the answer. */
const LINGER_MS = 10_000;
/** Connections open at once to the proxy, every run together. */
const MAX_CONNECTIONS = 256;
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'content-length']);

export class MirrorProxy {
  private readonly server: Server;
  private readonly tcp: Server;
  private readonly tunnelHost = new WeakMap<Socket, string>();
  private readonly contexts = new Map<string, SecureContext>();
  private socketPath: string | undefined;
  private readonly bodies = new ByteBudget(MAX_BUFFERED);

  /** Set once the CA is ready (before the first run); tunnels wait for nothing else. */
  issuer: CertificateIssuer | undefined;

  constructor(
    private readonly gateway: () => Gateway | undefined,
    private readonly log: Logger,
  ) {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((err: unknown) => {
        this.log.error({ err }, 'sandbox proxy failed');
        this.refuse(res, 502, 'the mirror could not answer');
      });
    };
    this.server = createServer({ keepAliveTimeout: 5000 }, handler);
    this.server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => this.tunnel(req, socket, head));
    this.server.on('clientError', (_err, socket: Socket) => socket.destroy());
    // The same handlers on a loopback port, for runs without a sandbox.
    this.tcp = createServer({ keepAliveTimeout: 5000 }, handler);
    this.tcp.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => this.tunnel(req, socket, head));
    this.tcp.on('clientError', (_err, socket: Socket) => socket.destroy());
    this.server.maxConnections = MAX_CONNECTIONS;
    this.tcp.maxConnections = MAX_CONNECTIONS;
  }

  /** Bytes of request bodies held now (for health and tests). */
  get bufferedBytes(): number {
    return this.bodies.inUse;
  }

  async listen(socketPath: string): Promise<void> {
    rmSync(socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(socketPath, () => resolve());
    });
    // The sandboxed user is not the server's user.
    chmodSync(socketPath, 0o666);
    this.socketPath = socketPath;
  }

  async listenLoopback(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.tcp.once('error', reject);
      this.tcp.listen(0, '127.0.0.1', () => resolve());
    });
    return (this.tcp.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const stop = (s: Server) =>
      new Promise<void>((resolve) => {
        if (!s.listening) return resolve();
        s.close(() => resolve());
        s.closeAllConnections();
      });
    await Promise.all([stop(this.server), stop(this.tcp)]);
    if (this.socketPath) rmSync(this.socketPath, { force: true });
  }

  private context(host: string, issuer: CertificateIssuer): SecureContext {
    let c = this.contexts.get(host);
    if (!c) {
      c = createSecureContext({ key: issuer.keyPem, cert: issuer.certFor(host) });
      this.contexts.set(host, c);
    }
    return c;
  }

  private tunnel(req: IncomingMessage, socket: Socket, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    const host = m?.[1]?.toLowerCase() ?? '';
    if (!m || !isProxiedHost(host) || host === SELF_HOST) {
      const why = `${host || req.url || 'that address'} is not reachable from the sandbox: only hosts biomirror mirrors are`;
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(why)}\r\nConnection: close\r\n\r\n${why}`);
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    if (m[2] === '80') {
      // Plain HTTP through a tunnel.
      this.tunnelHost.set(socket, host);
      this.server.emit('connection', socket);
      return;
    }
    if (!this.issuer) {
      socket.destroy();
      return;
    }
    const tls = new TLSSocket(socket, { isServer: true, secureContext: this.context(host, this.issuer) });
    tls.on('error', () => tls.destroy());
    this.tunnelHost.set(tls as unknown as Socket, host);
    this.server.emit('connection', tls);
  }

  private refuse(res: ServerResponse, status: number, reason: string): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = `biomirror sandbox proxy: ${reason}\n`;
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-biomirror-proxy': 'refused' });
    res.end(body);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let host = this.tunnelHost.get(req.socket);
    let target = req.url ?? '/';
    if (host === undefined) {
      // A plain proxied request carries the absolute URL.
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return this.refuseUnread(req, res, 400, 'this is a proxy: send absolute URLs or CONNECT');
      }
      if (url.protocol !== 'http:') return this.refuseUnread(req, res, 400, `unsupported scheme ${url.protocol}`);
      host = url.hostname.toLowerCase();
      // The path as written, not as URL parsing normalised it: dot segments are refused, not resolved.
      target = rawPathOfAbsolute(target) ?? url.pathname + url.search;
    }
    const gateway = this.gateway();
    if (!gateway) return this.refuseUnread(req, res, 503, 'biomirror is starting');
    const route = resolveRoute(host, target, gateway.mounts());
    if ('status' in route) return this.refuseUnread(req, res, route.status, route.reason);

    // The body is held in memory until the app has answered: its bytes come out of a budget shared
    // by every connection. A declared length waits for room before a byte is read.
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (declared > MAX_BODY) return this.refuseAndClose(req, res, 413, `request body larger than ${MAX_BODY} bytes`);
    let held = 0;
    if (declared > 0) {
      if (!(await this.bodies.acquire(declared, BODY_WAIT_MS))) return this.refuseAndClose(req, res, 503, 'too many request bodies in flight; retry later');
      held = declared;
    }
    try {
      return await this.forwardBody(req, res, gateway, route.target, (size) => {
        if (size <= held) return true;
        if (!this.bodies.tryTake(size - held)) return false;
        held = size;
        return true;
      });
    } finally {
      this.bodies.release(held);
    }
  }

  /**
   * A refusal before the body is read: a request without a body keeps its connection; one with a
   * body is refused as refuseAndClose does, so that its client reads the answer while still sending.
   */
  private refuseUnread(req: IncomingMessage, res: ServerResponse, status: number, reason: string): void {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody) this.refuseAndClose(req, res, status, reason);
    else this.refuse(res, status, reason);
  }

  /** A refusal that also ends the connection. The body still coming is read and dropped for a while
   * (it holds no memory): a socket closed with unread bytes is reset, and a client still sending
   * then sees a broken pipe instead of the answer. */
  private refuseAndClose(req: IncomingMessage, res: ServerResponse, status: number, reason: string): void {
    res.setHeader('connection', 'close');
    // Node closes a connection that is not kept alive as soon as the answer is written; here it only
    // ends the sending side, and the socket goes when the client is done or the linger runs out.
    const socket = req.socket as Socket & { destroySoon?: () => void };
    socket.destroySoon = () => {
      socket.end();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    };
    // Reading on (a data listener keeps the body flowing after a for-await loop let go of it).
    req.on('data', () => undefined);
    req.resume();
    this.refuse(res, status, reason);
  }

  private async forwardBody(req: IncomingMessage, res: ServerResponse, gateway: Gateway, target: string, room: (size: number) => boolean): Promise<void> {
    // A declared length is read straight into one buffer of that size (no second copy at the end).
    const declared = Number(req.headers['content-length'] ?? 0);
    const whole = declared > 0 ? Buffer.allocUnsafe(declared) : undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    // Not destroyed on an early return: a refusal reads the rest of the body and drops it.
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      const c = chunk as Buffer;
      if (size + c.length > MAX_BODY) return this.refuseAndClose(req, res, 413, `request body larger than ${MAX_BODY} bytes`);
      if (!room(size + c.length)) return this.refuseAndClose(req, res, 503, 'too many request bodies in flight; retry later');
      if (whole) c.copy(whole, size);
      else chunks.push(c);
      size += c.length;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
    // Links the services build point back through this proxy.
    headers.host = SELF_HOST;
    const answer = await gateway.forward({ method: req.method ?? 'GET', url: target, headers, body: whole ? whole.subarray(0, size) : Buffer.concat(chunks) });
    const out: Record<string, string | string[] | number> = {};
    for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP.has(k.toLowerCase())) out[k] = v;
    out['content-length'] = answer.body.length;
    res.writeHead(answer.status, out);
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  }
}
