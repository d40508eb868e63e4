/** Shared setup of the script-execution tests: an app with the service and fixture skills. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createExecService } from '../../src/services/exec/index.js';
import { probeBubblewrap } from '../../src/services/exec/sandbox/bwrap.js';
import { DEFAULT_LIMITS, type ExecSettings } from '../../src/services/exec/settings.js';
import type { ServiceModule } from '../../src/services/types.js';
import { loadDemoData, type Runtime } from '../../src/server/serve.js';
import { makeApp, silent, type TestApp } from './app.js';
import type { OpenedStore } from './stores.js';

export const FIXTURE_SKILLS = fileURLToPath(new URL('../fixtures/exec/skills/', import.meta.url));

/** '' when bubblewrap can make a sandbox here; otherwise why not (or a throw in CI). */
export function missingSandbox(): string {
  const s = probeBubblewrap('/usr/bin/bwrap');
  if (s.state === 'ok') return '';
  if (process.env.BIOMIRROR_REQUIRE_TOOLS === '1') throw new Error(`BIOMIRROR_REQUIRE_TOOLS is set but bubblewrap cannot run: ${s.reason ?? ''}`);
  return ` (skipped: needs a working bubblewrap: ${s.reason ?? ''})`;
}

/** '' when /usr/bin/python3 imports requests; otherwise the reason to skip (or a throw in CI). */
export function missingPythonRequests(): string {
  if (spawnSync('/usr/bin/python3', ['-c', 'import requests'], { stdio: 'ignore' }).status === 0) return '';
  if (process.env.BIOMIRROR_REQUIRE_TOOLS === '1') throw new Error('BIOMIRROR_REQUIRE_TOOLS is set but /usr/bin/python3 cannot import requests');
  return ' (skipped: needs python3-requests)';
}

export const TEST_TOKEN = 'bmx_test-token-of-the-fixture-app';

export const TEST_SETTINGS: ExecSettings = {
  skillDirs: [FIXTURE_SKILLS],
  sandbox: 'auto',
  bwrap: '/usr/bin/bwrap',
  auth: 'auto',
  // Requests in tests are dispatched in-process, where the server cannot see a loopback address.
  token: TEST_TOKEN,
  concurrency: 2,
  maxQueued: 8,
  queueWaitMs: 30_000,
  limits: { ...DEFAULT_LIMITS, wallMs: 10_000 },
};

export function execService(settings: Partial<ExecSettings> = {}): ServiceModule {
  return createExecService({ ...TEST_SETTINGS, ...settings, limits: { ...TEST_SETTINGS.limits, ...settings.limits } });
}

export function execApp(store: OpenedStore, settings: Partial<ExecSettings> = {}, others: ServiceModule[] = []): Promise<TestApp> {
  return makeApp(store, { services: [...others, execService(settings)], prefixed: true });
}

export interface Execution {
  status: number;
  json: { success: boolean; returncode: number; stdout: string; stderr: string; command: string };
  headers: Record<string, unknown>;
}

export async function execute(app: FastifyInstance, skill: string, script: string, args: unknown[] = [], headers: Record<string, string> = {}): Promise<Execution> {
  const res = await app.inject({ method: 'POST', url: `/exec/api/execute/${skill}/${script}`, payload: { args }, headers: { authorization: `Bearer ${TEST_TOKEN}`, ...headers } });
  return { status: res.statusCode, json: res.json(), headers: res.headers };
}

/** An app with the given data services (their demo data loaded) and the execution service. */
export async function mirrorApp(store: OpenedStore, services: ServiceModule[], settings: Partial<ExecSettings> = {}): Promise<TestApp> {
  const t = await execApp(store, settings, services);
  await loadDemoData({ db: store.db, generations: t.generations, log: silent } as unknown as Runtime, services);
  return t;
}
