/**
 * The script-execution benchmark. A trivial script (prints one line) of each kind, and each figure
 * beside its baseline in the same run:
 * - latency: from sending POST /exec/api/execute/... to the answer (the answer carries the
 *   script's first output byte), sequentially, beside spawning the same interpreter on the same
 *   file directly and reading its first output byte; and beside bubblewrap alone (the same
 *   sandbox flags without the in-sandbox proxy forwarder), to show where the overhead goes;
 * - throughput: runs/s with 16 concurrent clients and the default concurrency, beside direct
 *   spawns with the same number of processes at once.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/exec.js [--runs 100] [--duration 10]
 * (build the CLI first: npx tsc -p tsconfig.build.json)
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { percentile, startAndWait, stop } from './lib/proc.js';
import { CLI, log, machine, round, runMain, writeResults } from './lib/harness.js';

const { values } = parseArgs({ options: { runs: { type: 'string' }, duration: { type: 'string' } } });
const RUNS = Number(values.runs ?? 100);
const DURATION = Number(values.duration ?? 10);
const CLIENTS = 16;

const work = mkdtempSync(join(tmpdir(), 'biomirror-bench-exec-'));
// The runs' user reads the skill as "other".
chmodSync(work, 0o755);

function writeSkill(): string {
  const dir = join(work, 'skills', 'bench', 'scripts');
  mkdirSync(dir, { recursive: true });
  chmodSync(join(work, 'skills'), 0o755);
  writeFileSync(join(work, 'skills', 'bench', 'SKILL.md'), '---\nname: bench\ndescription: Trivial scripts for the benchmark.\n---\n');
  writeFileSync(join(dir, 'hello.py'), 'print("hello")\n');
  writeFileSync(join(dir, 'hello.mjs'), 'process.stdout.write("hello\\n");\n');
  return join(work, 'skills');
}

/** Milliseconds from spawning a program to its first output byte. */
function firstByte(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let at: number | undefined;
    child.stdout.once('data', () => {
      at = Number(process.hrtime.bigint() - t0) / 1e6;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 && at !== undefined ? resolve(at) : reject(new Error(`${cmd} exited ${String(code)}`))));
  });
}

async function execute(base: string, script: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const res = await fetch(`${base}/exec/api/execute/bench/${script}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"args":[]}' });
  const body = (await res.json()) as { success: boolean; stdout: string; stderr: string };
  if (!body.success || body.stdout !== 'hello\n') throw new Error(`run failed: ${JSON.stringify(body)}; health: ${await (await fetch(`${base}/exec/api/health`)).text()}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function stats(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50)), p90: round(percentile(s, 90)), p99: round(percentile(s, 99)), n: s.length };
}

async function repeat(fn: () => Promise<number>): Promise<number[]> {
  for (let i = 0; i < 5; i++) await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) out.push(await fn());
  return out;
}

/** Completed runs per second with `clients` loops running `fn` back to back for DURATION s. */
async function throughput(fn: () => Promise<unknown>, clients: number): Promise<number> {
  const end = Date.now() + DURATION * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        await fn();
        n++;
      }
    }),
  );
  return round(n / DURATION);
}

/** The sandbox's flags without the proxy forwarder (a lower bound of what bubblewrap costs). */
function bwrapOnly(skillDir: string, file: string): string[] {
  return [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--uid',
    '65534',
    '--gid',
    '65534',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin:/bin',
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--ro-bind',
    skillDir,
    '/skill',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    '--chdir',
    '/tmp',
    '--remount-ro',
    '/',
    '/usr/bin/python3',
    '-B',
    '-s',
    `/skill/scripts/${file}`,
  ];
}

async function main() {
  const skills = writeSkill();
  const skillDir = join(skills, 'bench');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: join(work, 'data'),
    PORT: '0',
    BIOMIRROR_LIMITS: 'off',
    BIOMIRROR_EXEC_SKILLS: skills,
    BIOMIRROR_EXEC_BUILTIN_SKILLS: 'off',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.BIOMIRROR_EXEC_CONCURRENCY;
  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/);
  const base = match[1] as string;
  const results: Record<string, unknown> = { date: new Date().toISOString(), machine: machine(), runs: RUNS, durationSeconds: DURATION };
  try {
    const py = join(skillDir, 'scripts', 'hello.py');
    const js = join(skillDir, 'scripts', 'hello.mjs');
    log('python: direct spawn, bubblewrap alone, biomirror');
    const pyDirect = stats(await repeat(() => firstByte('/usr/bin/python3', ['-B', '-s', py])));
    const pyBwrap = stats(await repeat(() => firstByte('/usr/bin/bwrap', bwrapOnly(skillDir, 'hello.py'))));
    const pyExec = stats(await repeat(() => execute(base, 'hello.py')));
    log('node: direct spawn, biomirror');
    const jsDirect = stats(await repeat(() => firstByte(process.execPath, [js])));
    const jsExec = stats(await repeat(() => execute(base, 'hello.mjs')));
    results.latencyMs = {
      python: { direct: pyDirect, bubblewrapAlone: pyBwrap, biomirror: pyExec, overheadP50: round(pyExec.p50 - pyDirect.p50) },
      node: { direct: jsDirect, biomirror: jsExec, overheadP50: round(jsExec.p50 - jsDirect.p50) },
    };
    const concurrency = Math.max(1, Math.min(4, availableParallelism()));
    log(`throughput: ${CLIENTS} clients, default concurrency ${concurrency}`);
    results.throughput = {
      clients: CLIENTS,
      concurrency,
      biomirrorRunsPerSecond: await throughput(() => execute(base, 'hello.py'), CLIENTS),
      directSpawnsPerSecond: await throughput(() => firstByte('/usr/bin/python3', ['-B', '-s', py]), concurrency),
    };
  } finally {
    await stop(child);
    rmSync(work, { recursive: true, force: true });
  }
  writeResults('exec', results);
}

runMain(main);
