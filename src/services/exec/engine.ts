/**
 * Everything the service runs on: the skills (read and checked at start), the sandbox (probed at
 * start), the proxy to the mirror with its CA, the queue of runs, the token. One per app; the
 * proxy reaches biomirror's services through the app that mounts them all.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Db } from '../../core/store/db.js';
import type { CaPem } from './ca.js';
import { MirrorProxy, type Gateway } from './proxy.js';
import { RunQueue } from './queue.js';
import { Runner } from './runner.js';
import { probeBubblewrap, runningAsRoot, type SandboxState } from './sandbox/bwrap.js';
import { RunCgroups } from './sandbox/cgroup.js';
import { newToken, secret } from './secrets.js';
import type { ExecSettings } from './settings.js';
import { loadSkills, type SkillSet } from './skills.js';
import { unreadableBySandbox } from './permissions.js';
import { transpileScripts } from './typescript.js';

/** Skills the sandbox's user could not read are reported and left out (the server drops root to run them). */
function leaveOutUnreadable(set: SkillSet): void {
  for (const [name, skill] of set.skills) {
    const why = unreadableBySandbox(skill);
    if (why) {
      set.skills.delete(name);
      set.problems.push({ folder: skill.dir, problem: why });
    }
  }
}

export class ExecEngine {
  readonly skills: SkillSet;
  readonly sandbox: SandboxState;
  readonly queue: RunQueue;
  readonly runner: Runner;
  readonly runtimeDir: string;
  readonly token: string;
  /** What bounds a run as a whole (a control group per run), or why only its processes are. */
  readonly cgroups: RunCgroups | undefined;
  private readonly proxy: MirrorProxy;
  private loopbackPort: number | undefined;

  private ca: Promise<void> | undefined;

  private constructor(
    readonly settings: ExecSettings,
    private readonly db: Db,
    token: string,
    gateway: () => Gateway | undefined,
    baseEnv: Record<string, string>,
    private readonly log: Logger,
  ) {
    this.token = token;
    this.skills = loadSkills(settings.skillDirs);
    this.sandbox = settings.sandbox === 'none' ? { kind: 'none', state: 'unsandboxed', reason: 'BIOMIRROR_EXEC_SANDBOX=none' } : probeBubblewrap(settings.bwrap);
    if (this.sandbox.state === 'ok' && runningAsRoot()) leaveOutUnreadable(this.skills);
    for (const p of this.skills.problems) log.warn({ folder: p.folder, problem: p.problem }, 'skill left out');
    if (this.sandbox.state === 'unsandboxed') log.warn('scripts run WITHOUT a sandbox (BIOMIRROR_EXEC_SANDBOX=none): a script can do anything the server can');
    if (this.sandbox.state === 'unavailable') log.warn({ reason: this.sandbox.reason }, 'scripts will not run: no sandbox');
    // The runs' user is not the server's: the folder is open to read, its files are public.
    this.runtimeDir = mkdtempSync(join(tmpdir(), 'biomirror-exec-'));
    chmodSync(this.runtimeDir, 0o755);
    const compiled = transpileScripts(this.skills.skills.values(), this.runtimeDir);
    this.proxy = new MirrorProxy(gateway, log);
    this.cgroups = this.sandbox.state === 'unavailable' ? undefined : RunCgroups.open();
    if (this.cgroups?.state.kind === 'none') log.warn({ reason: this.cgroups.state.detail }, 'script runs are bounded per process only');
    this.queue = new RunQueue(settings.concurrency, settings.maxQueued, settings.queueWaitMs);
    this.runner = new Runner({
      bwrap: settings.bwrap,
      forwarder: settings.forwarder,
      sandbox: this.sandbox,
      limits: settings.limits,
      runtimeDir: this.runtimeDir,
      loopbackPort: () => this.loopbackPort,
      baseEnv,
      cgroups: this.cgroups,
      transpiled: (_skill, script) => compiled.get(script),
      log,
    });
  }

  static async start(settings: ExecSettings, db: Db, gateway: () => Gateway | undefined, baseEnv: Record<string, string>, log: Logger): Promise<ExecEngine> {
    const token = settings.token ?? (await secret(db, 'token', newToken));
    const engine = new ExecEngine(settings, db, token, gateway, baseEnv, log);
    try {
      await engine.proxy.listen(join(engine.runtimeDir, 'proxy.sock'));
      if (engine.sandbox.state === 'unsandboxed') engine.loopbackPort = await engine.proxy.listenLoopback();
    } catch (err) {
      await engine.close();
      throw err;
    }
    return engine;
  }

  /**
   * The proxy's CA, made (first time) or read, its certificate written for the runs. Done before
   * the first run rather than at start: RSA key generation would slow every start.
   */
  prepare(): Promise<void> {
    this.ca ??= (async () => {
      const { CertificateIssuer, makeCa } = await import('./ca.js');
      const ca = JSON.parse(await secret(this.db, 'proxy-ca', () => JSON.stringify(makeCa()))) as CaPem;
      writeFileSync(join(this.runtimeDir, 'ca.pem'), ca.cert, { mode: 0o644 });
      this.proxy.issuer = new CertificateIssuer(ca);
    })();
    this.ca.catch(() => {
      this.ca = undefined;
    });
    return this.ca;
  }

  async close(): Promise<void> {
    await this.proxy.close();
    this.cgroups?.close();
    rmSync(this.runtimeDir, { recursive: true, force: true });
  }
}
