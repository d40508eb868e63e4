/**
 * Which services are ready to answer. A server listens as soon as it starts and loads the demo
 * data afterwards; until a service's datasets are loaded it answers 503 with Retry-After in its
 * own error shape, and `/ready` (for load balancers) answers 503 until every service is ready.
 * `/health` stays the liveness check: 200 while the process runs.
 */
import type { ServiceError } from '../core/http/errors.js';
import type { ServiceModule } from '../services/types.js';

export type ServiceState = 'loading' | 'ready' | 'failed';

interface Entry {
  state: ServiceState;
  since: string;
  /** What the service is doing now, while loading ("loading demo dataset compounds"). */
  step?: string;
  error?: string;
}

/** Seconds a client is told to wait before asking a loading service again. */
export const LOADING_RETRY_SECONDS = 5;

export class Readiness {
  private readonly entries = new Map<string, Entry>();

  set(service: string, state: ServiceState, detail: { step?: string; error?: string } = {}): void {
    this.entries.set(service, { state, since: new Date().toISOString(), ...detail });
  }

  step(service: string, step: string): void {
    const e = this.entries.get(service);
    if (e?.state === 'loading') e.step = step;
  }

  /** A service never marked is ready (servers started without a demo load). */
  loading(service: string): boolean {
    return this.entries.get(service)?.state === 'loading';
  }

  allReady(): boolean {
    return [...this.entries.values()].every((e) => e.state !== 'loading');
  }

  report(services: readonly ServiceModule[]): Record<string, Entry> {
    return Object.fromEntries(services.map((s) => [s.id, this.entries.get(s.id) ?? { state: 'ready' as const, since: '' }]));
  }
}

/**
 * The 503 a loading service answers, in its own error shape (the one its bad requests have: the
 * upstreams' own 503 bodies, where there are any, cannot say why).
 */
export function loadingError(service: ServiceModule, path: string, step: string | undefined): ServiceError {
  const message = `${service.title} is still loading its data on this server${step ? ` (${step})` : ''}; retry in ${LOADING_RETRY_SECONDS} seconds`;
  return service.errors.badRequest(message, 503, path);
}
