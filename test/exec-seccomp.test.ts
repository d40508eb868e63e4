/**
 * The sandbox's seccomp filter: its program run by a small BPF interpreter over every system call
 * number, its table checked against the kernel headers where installed, and the filter installed
 * by bubblewrap around Python and Node, which must get EPERM for the denied calls and work as usual
 * otherwise.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE, PYTHON, runningAsRoot, SETPRIV, UID_BASE } from '../src/services/exec/sandbox/bwrap.js';
import { AUDIT_ARCH, DENIED_SYSCALLS, deniedNumbers, seccompProgram, type SeccompArch } from '../src/services/exec/sandbox/seccomp.js';
import { missingSandbox } from './helpers/exec.js';

// The expected values, spelled out here rather than imported, so that the test checks the module.
const KILL_PROCESS = 0x80000000;
const ERRNO_EPERM = 0x00050001;
const ALLOW = 0x7fff0000;
const AUDIT_ARCH_I386 = 0x40000003;
const AUDIT_ARCH_ARM = 0x40000028;
const AUDIT_ARCH_X32_BIT = 0x40000000;

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

function decode(b: Buffer): Insn[] {
  expect(b.length % 8).toBe(0);
  const out: Insn[] = [];
  for (let o = 0; o < b.length; o += 8) out.push({ code: b.readUInt16LE(o), jt: b.readUInt8(o + 2), jf: b.readUInt8(o + 3), k: b.readUInt32LE(o + 4) });
  return out;
}

/** Runs the program over struct seccomp_data { int nr; u32 arch; u64 ip; u64 args[6] } (only nr and arch read). */
function run(p: Insn[], nr: number, arch: number): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(nr >>> 0, 0);
  data.writeUInt32LE(arch >>> 0, 4);
  let a = 0;
  for (let pc = 0; pc < p.length; pc++) {
    const { code, jt, jf, k } = p[pc] as Insn;
    switch (code) {
      case 0x20: // LD W ABS
        if (k + 4 > data.length || k % 4 !== 0) throw new Error(`bad load offset ${k} at ${pc}`);
        a = data.readUInt32LE(k);
        break;
      case 0x15: // JEQ K
        pc += a === k ? jt : jf;
        break;
      case 0x35: // JGE K (unsigned)
        pc += a >>> 0 >= k >>> 0 ? jt : jf;
        break;
      case 0x06: // RET K
        return k;
      default:
        throw new Error(`opcode 0x${code.toString(16)} at ${pc} is not one of the four expected`);
    }
  }
  throw new Error('the program ran off its end');
}

const ARCHES: { arch: SeccompArch; audit: number; others: number[]; allowed: Record<string, number> }[] = [
  {
    arch: 'x64',
    audit: 0xc000003e,
    others: [AUDIT_ARCH_I386, AUDIT_ARCH_ARM, 0xc00000b7, 0],
    allowed: { read: 0, write: 1, openat: 257, clone: 56, execve: 59, mmap: 9, clone3: 435, personality: 135, exit_group: 231 },
  },
  {
    arch: 'arm64',
    audit: 0xc00000b7,
    others: [AUDIT_ARCH_ARM, AUDIT_ARCH_I386, 0xc000003e, 0],
    allowed: { read: 63, write: 64, openat: 56, clone: 220, execve: 221, mmap: 222, clone3: 435, personality: 92, exit_group: 94 },
  },
];

describe.each(ARCHES)('the seccomp program for $arch', ({ arch, audit, others, allowed }) => {
  const program = seccompProgram(arch) as Buffer;
  const p = decode(program);
  const denied = new Set<number>(Object.values(DENIED_SYSCALLS).map((n) => n[arch]));

  it('is well formed: only forward jumps inside the program, ending in returns', () => {
    expect(AUDIT_ARCH[arch]).toBe(audit);
    expect(p.length).toBeLessThanOrEqual(4096); // BPF_MAXINSNS
    p.forEach((insn, i) => {
      if (insn.code === 0x15 || insn.code === 0x35) {
        expect(i + 1 + Math.max(insn.jt, insn.jf)).toBeLessThan(p.length);
      }
    });
    expect(p.at(-1)?.code).toBe(0x06);
  });

  it('kills a call made through another architecture or ABI', () => {
    for (const other of others) {
      for (const nr of [0, 1, 59, 425, 321]) expect(run(p, nr, other)).toBe(KILL_PROCESS);
    }
  });

  it('refuses each denied call with EPERM and allows every other number', () => {
    for (const [name, n] of Object.entries(DENIED_SYSCALLS)) expect([name, run(p, n[arch], audit)]).toEqual([name, ERRNO_EPERM]);
    for (let nr = 0; nr < 1024; nr++) expect(run(p, nr, audit)).toBe(denied.has(nr) ? ERRNO_EPERM : ALLOW);
    for (const [name, nr] of Object.entries(allowed)) expect([name, run(p, nr, audit)]).toEqual([name, ALLOW]);
    expect(deniedNumbers(arch)).toEqual([...denied].sort((a, b) => a - b));
  });

  if (arch === 'x64') {
    it('refuses x32-ABI calls, which carry the x86_64 arch value', () => {
      for (const nr of [0, 1, 39, 59, 425, 512, 0x3fffffff]) expect(run(p, AUDIT_ARCH_X32_BIT + nr, audit)).toBe(ERRNO_EPERM);
    });
  }
});

describe('the seccomp table', () => {
  it('has no program for other architectures', () => {
    for (const a of ['ia32', 'arm', 'riscv64', 's390x', 'ppc64', 'loong64']) expect(seccompProgram(a)).toBeUndefined();
    expect(seccompProgram()).toEqual(process.arch === 'x64' || process.arch === 'arm64' ? seccompProgram(process.arch) : undefined);
  });

  it('names io_uring by the same numbers on every architecture', () => {
    expect(DENIED_SYSCALLS.io_uring_setup).toEqual({ x64: 425, arm64: 425 });
    expect(DENIED_SYSCALLS.io_uring_enter).toEqual({ x64: 426, arm64: 426 });
    expect(DENIED_SYSCALLS.io_uring_register).toEqual({ x64: 427, arm64: 427 });
  });

  /** `#define __NR_name number` lines of a header. */
  const defines = (file: string): Map<string, number> => new Map([...readFileSync(file, 'utf8').matchAll(/^#define __NR_(\w+)\s+(\d+)\s*$/gm)].map((m) => [m[1] as string, Number(m[2])]));
  const X64_HEADER = '/usr/include/x86_64-linux-gnu/asm/unistd_64.h';
  const GENERIC_HEADER = '/usr/include/asm-generic/unistd.h';

  it.skipIf(!existsSync(X64_HEADER))(`matches the x86_64 numbers of ${X64_HEADER}`, () => {
    const h = defines(X64_HEADER);
    for (const [name, n] of Object.entries(DENIED_SYSCALLS)) expect([name, h.get(name)]).toEqual([name, n.x64]);
  });

  // arm64 uses the generic table; the names here are all unconditional plain defines in it.
  it.skipIf(!existsSync(GENERIC_HEADER))(`matches the arm64 numbers of ${GENERIC_HEADER}`, () => {
    const h = defines(GENERIC_HEADER);
    for (const [name, n] of Object.entries(DENIED_SYSCALLS)) expect([name, h.get(name)]).toEqual([name, n.arm64]);
  });
});

const skip = missingSandbox();
const BWRAP = '/usr/bin/bwrap';
const IN_NODE = '/opt/node';

/** [setpriv ...] bwrap <the probe's sandbox> [--seccomp fd] [extra] program... */
function sandboxed(seccompFd: number | undefined, extra: string[], program: string[]): [string, string[]] {
  const drop = runningAsRoot() ? [SETPRIV, `--reuid=${UID_BASE}`, `--regid=${UID_BASE}`, '--clear-groups', '--'] : [];
  const argv = [
    ...drop,
    BWRAP,
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
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    ...(NODE.startsWith('/usr/') ? [] : ['--ro-bind', NODE, IN_NODE]),
    ...(seccompFd === undefined ? [] : ['--seccomp', String(seccompFd)]),
    ...extra,
    ...program,
  ];
  return [argv[0] as string, argv.slice(1)];
}

/** Makes each call given as {name: [nr, ...args]} ("pid" stands for its own pid); prints {name: [ret, errno]}. */
const CALLS_PY = `
import ctypes, json, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(nr, *args):
    args = [ctypes.c_long(os.getpid() if a == "pid" else a) for a in args]
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *args)
    return [r, ctypes.get_errno() if r == -1 else 0]
print(json.dumps({name: call(*c) for name, c in json.loads(sys.argv[1]).items()}))
`;

/** What an ordinary script does: files, a fork, a subprocess, a thread. */
const ORDINARY_PY = `
import json, os, subprocess, threading
with open("/tmp/f", "w") as f: f.write("written")
out = {"release": "ID=" in open("/usr/lib/os-release").read(), "tmp": open("/tmp/f").read()}
pid = os.fork()
if pid == 0: os._exit(7)
out["fork"] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
out["true"] = subprocess.run(["/bin/true"]).returncode
t = threading.Thread(target=lambda: out.__setitem__("thread", True)); t.start(); t.join()
print(json.dumps(out))
`;

const ORDINARY_JS = `
const fs = require('fs'), cp = require('child_process');
fs.writeFileSync('/tmp/f', 'written');
fs.promises.readFile('/tmp/f', 'utf8').then((tmp) => console.log(JSON.stringify({ tmp, true: cp.spawnSync('/bin/true').status })));
`;

describe.skipIf(skip !== '' || seccompProgram() === undefined)(`the filter installed by bubblewrap${skip}`, () => {
  const arch = process.arch as SeccompArch;
  const program = seccompProgram() as Buffer;
  const nr = (name: keyof typeof DENIED_SYSCALLS): number => DENIED_SYSCALLS[name][arch];
  // Arguments chosen so that each call, unfiltered, fails for a reason other than EPERM or succeeds.
  const calls: Record<string, (number | string)[]> = {
    io_uring_setup: [nr('io_uring_setup'), 1, 0], // params NULL: EFAULT where io_uring is enabled
    bpf: [nr('bpf'), 0, 0, 0],
    perf_event_open: [nr('perf_event_open'), 0, 0, -1, -1, 0],
    unshare: [nr('unshare'), 0], // unshare(0) does nothing and succeeds
    process_vm_readv: [nr('process_vm_readv'), 'pid', 0, 0, 0, 0, 0], // no iovecs: succeeds on itself
    ...(arch === 'x64' ? { x32_getpid: [0x40000000 + 39] } : {}),
  };
  let dir: string;
  let file: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'biomirror-seccomp-'));
    file = join(dir, 'filter.bpf');
    writeFileSync(file, program);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the program in the sandbox, with the filter on fd 3 when asked; its stdout as JSON. */
  function inSandbox(filtered: boolean, program: string[], extra: string[] = []): Record<string, unknown> {
    const fd = filtered ? openSync(file, 'r') : undefined;
    try {
      const [cmd, args] = sandboxed(fd === undefined ? undefined : 3, extra, program);
      const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe', fd ?? 'ignore'], encoding: 'utf8', timeout: 20_000 });
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
      return JSON.parse(r.stdout) as Record<string, unknown>;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  it('gives EPERM for the denied calls, where the same calls unfiltered do not', () => {
    const filtered = inSandbox(true, [PYTHON, '-c', CALLS_PY, JSON.stringify(calls)]);
    for (const name of Object.keys(calls)) expect([name, filtered[name]]).toEqual([name, [-1, 1]]);

    const baseline = inSandbox(false, [PYTHON, '-c', CALLS_PY, JSON.stringify(calls)]);
    // These two succeed without the filter, so the EPERM above is the filter's doing.
    expect(baseline.unshare).toEqual([0, 0]);
    expect(baseline.process_vm_readv).toEqual([0, 0]);
    // The rest depend on the host kernel and its settings, so they are only recorded. On the
    // development machine (Linux 6.18, kernel.io_uring_disabled=0, no x32 ABI): io_uring_setup
    // EFAULT (14), i.e. io_uring is open to the sandbox without the filter; bpf EINVAL (22);
    // perf_event_open EFAULT (14); x32 getpid ENOSYS (38).
  });

  it('lets an ordinary Python script read and write files, fork, run a program and start a thread', () => {
    expect(inSandbox(true, [PYTHON, '-c', ORDINARY_PY])).toEqual({ release: true, tmp: 'written', fork: 7, true: 0, thread: true });
  });

  // With UV_USE_IO_URING=1 Node 20's libuv calls io_uring_setup (strace shows it); on EPERM it
  // falls back to its thread pool.
  it("lets the server's Node run, even when told to try io_uring (libuv falls back)", () => {
    const node = NODE.startsWith('/usr/') ? NODE : IN_NODE;
    expect(inSandbox(true, [node, '-e', ORDINARY_JS], ['--setenv', 'UV_USE_IO_URING', '1'])).toEqual({ tmp: 'written', true: 0 });
  });

  it('can be handed over a pipe on fd 4 next to --json-status-fd 3, as the runner would', async () => {
    const [cmd, args] = sandboxed(4, ['--json-status-fd', '3'], [PYTHON, '-c', CALLS_PY, JSON.stringify({ io_uring_setup: calls.io_uring_setup })]);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] });
    (child.stdio[4] as Writable).end(program);
    let stdout = '';
    let stderr = '';
    let status = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    (child.stdio[3] as Readable).on('data', (c: Buffer) => (status += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(status).toContain('"child-pid"');
    expect(JSON.parse(stdout)).toEqual({ io_uring_setup: [-1, 1] });
  });
});
