import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { pathPart, unsafePathReason } from '../../core/http/paths.js';
import type { ServiceContext, ServiceModule } from '../types.js';
import { ExecEngine } from './engine.js';
import { execCatalogue } from './errors.js';
import { MIRRORED_HOSTS } from './hosts.js';
import { DENIED_SYSCALLS } from './sandbox/seccomp.js';
import type { Gateway } from './proxy.js';
import { registerRoutes } from './routes.js';
import { SECRETS_MIGRATIONS, newToken, secret } from './secrets.js';
import { settingsFromEnv, type ExecSettings } from './settings.js';
import { projectPath } from '../../core/files/project.js';

export const SERVICE = 'exec';
const MOUNT = '/exec';

const VERSION = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;

/** The base URL variables every run gets: BIOMIRROR_URL and one per base-URL placeholder. */
function baseEnv(services: readonly Pick<ServiceModule, 'id' | 'mount' | 'baseUrls'>[]): Record<string, string> {
  const env: Record<string, string> = { BIOMIRROR_URL: 'http://biomirror' };
  for (const s of services) {
    if (s.id === SERVICE) continue;
    for (const [k, v] of Object.entries(s.baseUrls)) env[`BIOMIRROR_${k.toUpperCase()}`] = `http://biomirror${s.mount}${v}`;
  }
  return env;
}

/**
 * The script-execution service: skills in the Agent Skills format, run in a bubblewrap sandbox
 * whose only way out is a proxy to biomirror's own services. `settings` replaces the environment's
 * (tests); otherwise BIOMIRROR_EXEC_* variables are read when the server starts.
 */
export function createExecService(settings?: Partial<ExecSettings>): ServiceModule {
  let last: ExecEngine | undefined;
  const resolved = () => ({ ...settingsFromEnv(), ...settings });

  const health = (engine: ExecEngine) => ({
    status: engine.sandbox.state === 'unavailable' ? 'degraded' : 'ok',
    service: 'biomirror script execution',
    version: VERSION,
    sandbox: engine.sandbox,
    runs: { in_flight: engine.queue.running, queued: engine.queue.queued, concurrency: engine.queue.concurrency, max_queued: engine.settings.maxQueued },
    limits: engine.settings.limits,
    // Whether the run-wide bounds (runMemoryBytes, cpus, processes) hold, and through what.
    run_bounds: engine.cgroups?.state ?? { kind: 'none', detail: 'no runs: no sandbox' },
    // System calls refused inside the sandbox (empty on architectures the filter has no numbers for).
    seccomp_denied: engine.sandbox.state === 'ok' && engine.runner.filtered ? Object.keys(DENIED_SYSCALLS) : [],
    skills: { count: engine.skills.skills.size, invalid: engine.skills.problems },
    mirrored_hosts: MIRRORED_HOSTS.map((h) => h.host),
  });

  return {
    id: SERVICE,
    title: 'Script-execution service (Agent Skills, sandboxed)',
    mount: MOUNT,
    baseUrls: { exec_base_url: '' },
    defaultPort: 8094,
    limits: [],
    migrations: SECRETS_MIGRATIONS,
    datasets: [],
    errors: execCatalogue,
    async routes(app: FastifyInstance, ctx: ServiceContext) {
      // The build's services come through the context: the registry lists this module.
      const services = ctx.services;
      const all = (await services?.list()) ?? [];
      const mounts = all.filter((s) => s.id !== SERVICE).map((s) => s.mount);
      const gateway: Gateway = {
        mounts: () => mounts,
        async forward(r) {
          // The proxy resolved the target; this is the last check before the app parses it as
          // a URL: a mirrored service's path, spelled so that parsing cannot change it.
          const path = pathPart(r.url);
          if (unsafePathReason(r.url) || !mounts.some((m) => path === m || path.startsWith(`${m}/`))) {
            const body = Buffer.from(`biomirror sandbox proxy: ${path.slice(0, 200)} is not a mirrored service's path\n`);
            return { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' }, body };
          }
          // Offered to the proxy only when the services answer (see below).
          if (!services) throw new Error('no services to forward to');
          return services.request(r);
        },
      };
      // On a port of its own this service hands requests to the app with every service under its
      // mount, once one answers in this process.
      const engine = await ExecEngine.start(resolved(), ctx.db, () => (services?.available() ? gateway : undefined), baseEnv(all), ctx.log);
      last = engine;
      app.addHook('onClose', async () => {
        await engine.close();
      });
      registerRoutes(app, engine, health);
    },
    engines() {
      return { sandbox: last ? { ...last.sandbox, in_flight: last.queue.running, queued: last.queue.queued } : { state: 'not started' } };
    },
    async startupNotes(ctx: ServiceContext) {
      const s = resolved();
      const notes: string[] = [];
      const sandbox = last?.sandbox;
      if (sandbox?.state === 'unsandboxed') notes.push('WARNING: scripts run WITHOUT a sandbox (BIOMIRROR_EXEC_SANDBOX=none); a script can do anything this server can');
      else if (sandbox?.state === 'unavailable') notes.push(`scripts will not run: ${sandbox.reason ?? 'no sandbox'} (install bubblewrap, or opt in with BIOMIRROR_EXEC_SANDBOX=none)`);
      else if (sandbox) notes.push(`scripts run in bubblewrap ${sandbox.version ?? ''}`.trim());
      if (s.auth !== 'never') {
        const token = s.token ?? (await secret(ctx.db, 'token', newToken));
        notes.push(`execution token (needed when the server listens beyond loopback): ${s.token ? '(set by BIOMIRROR_EXEC_TOKEN)' : token}`);
      }
      if (last) notes.push(`${last.skills.skills.size} skills loaded${last.skills.problems.length ? `, ${last.skills.problems.length} left out (see GET ${MOUNT}/api/health)` : ''}`);
      return notes;
    },
  };
}

export const exec: ServiceModule = createExecService();
