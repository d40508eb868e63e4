/**
 * The `services` member of a ServiceContext: the build's services and the app of this process that
 * answers for them all, so that a service reaches the others in-process without importing the
 * registry (which lists it).
 */
import type { FastifyInstance } from 'fastify';
import { injectLocal, sharedApp } from '../core/http/local-apps.js';
import type { ServiceDirectory } from '../services/types.js';

/** `own`: the app being built when it mounts every service (the shared port); else the process's one. */
export function serviceDirectory(own: FastifyInstance | undefined): ServiceDirectory {
  // Looked up per request: a service's own-port app may be built before the shared one, or outlive it.
  const app = () => own ?? sharedApp();
  return {
    // Read only when a service asks (the sandbox proxy): loading every service costs most apps for nothing.
    list: async () => (await import('../services/registry.js')).SERVICES,
    available: () => app() !== undefined,
    request(r) {
      const a = app();
      return a ? injectLocal(a, r) : Promise.reject(new Error('no app with every service answers in this process'));
    },
  };
}
