/**
 * The ports a server takes, and what a user reads when one cannot be had: the port, whose it is
 * (the main port or a service's own) and the setting that moves it. The ports are tried before
 * anything is loaded, so that a taken port fails the start at once rather than after the demo data.
 */
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ServiceModule } from '../services/types.js';
import { ConfigError, ownPort, ownPortOrigin, type Config } from './config.js';

export interface PlannedPort {
  port: number;
  /** The service whose own port it is; null for the main port. */
  service: string | null;
  /** How to move it. */
  fix: string;
  /** Where its number comes from. */
  origin: string;
}

/** The main port, then with --port-per-service each service's own; refuses numbers that clash or run past 65535. */
export function plannedPorts(config: Config, services: readonly ServiceModule[]): PlannedPort[] {
  const out: PlannedPort[] = [{ port: config.port, service: null, origin: `--port ${config.port}`, fix: 'choose another with --port (or PORT, or "port" in the config file)' }];
  if (!config.portPerService) return out;
  for (const s of services) {
    const p = ownPort(config, s);
    const origin = ownPortOrigin(config, s);
    if (p === undefined) throw new ConfigError(`the own port of ${s.id} (${origin}) is past 65535: choose a lower --port`);
    const fix =
      config.services[s.id]?.port !== undefined
        ? `choose another in services.${s.id}.port of the config file`
        : `move every own port with --port (each is --port + its offset), or set this one with "services": {"${s.id}": {"port": N}} in the config file`;
    out.push({ port: p, service: s.id, origin, fix });
  }
  const seen = new Map<number, PlannedPort>();
  for (const p of out) {
    if (p.port === 0) continue;
    const other = seen.get(p.port);
    if (other) throw new ConfigError(`port ${p.port} is both ${whose(other)} and ${whose(p)}: ${p.fix}`);
    seen.set(p.port, p);
  }
  return out;
}

function whose(p: PlannedPort): string {
  return p.service === null ? `the main port (${p.origin})` : `the own port of ${p.service} (--port-per-service; ${p.origin})`;
}

/** A port that could not be listened on, said in the user's terms. */
export class ListenError extends Error {
  override readonly name = 'ListenError';
}

export function explainListen(err: unknown, host: string, p: PlannedPort): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const at = `port ${p.port} on ${host}, ${whose(p)},`;
  if (code === 'EADDRINUSE') return new ListenError(`${at} is already in use (by another program or another biomirror): ${p.fix}`);
  if (code === 'EACCES') return new ListenError(`${at} may not be listened on by this user (ports below 1024 need privileges): ${p.fix}`);
  if (code === 'EADDRNOTAVAIL') return new ListenError(`cannot listen on ${host}: no such address on this machine; choose another with --host (or HOST)`);
  return err;
}

/** Listens, or fails with a ListenError. */
export async function listenOn(app: FastifyInstance, host: string, p: PlannedPort): Promise<string> {
  try {
    return await app.listen({ host, port: p.port });
  } catch (err) {
    throw explainListen(err, host, p);
  }
}

/** Opens and closes each port once: a taken one fails here, before the data is opened or loaded. */
export async function tryPorts(host: string, ports: readonly PlannedPort[]): Promise<void> {
  for (const p of ports) {
    if (p.port === 0) continue;
    await new Promise<void>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', (err) => reject(explainListen(err, host, p)));
      probe.listen({ host, port: p.port, exclusive: true }, () => probe.close(() => resolve()));
    });
  }
}
