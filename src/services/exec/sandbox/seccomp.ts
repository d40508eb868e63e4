/**
 * The sandbox's seccomp filter: a classic-BPF program for bubblewrap's `--seccomp FD`, built here
 * so that no libseccomp binding is needed. It refuses (EPERM) a short list of system calls that no
 * skill script needs and that are a large share of kernel exploits' entry points, and allows all
 * others. Calls through another ABI, whose numbers the list would not match, never get through: a
 * 32-bit call kills the process, an x32 call (x86_64 only) gets EPERM.
 *
 * Numbers are the kernel's: x86_64 from asm/unistd_64.h, arm64 from asm-generic/unistd.h (both
 * checked against libseccomp's src/syscalls.csv). `unshare`/`setns` are refused outright; `clone`
 * and `clone3` stay allowed (every fork uses them), since new user namespaces are already
 * prevented by bubblewrap's --disable-userns and every other namespace needs a capability the
 * sandbox lacks.
 */
import { endianness } from 'node:os';

export type SeccompArch = 'x64' | 'arm64';

/** The system calls refused with EPERM, by name, with their numbers per architecture. */
export const DENIED_SYSCALLS = {
  // io_uring: a second system-call interface that seccomp cannot see into, and a steady CVE source.
  io_uring_setup: { x64: 425, arm64: 425 },
  io_uring_enter: { x64: 426, arm64: 426 },
  io_uring_register: { x64: 427, arm64: 427 },
  // eBPF programs and maps: a verifier and JIT reachable from user space.
  bpf: { x64: 321, arm64: 280 },
  // Lets an exploit stall the kernel at a chosen page fault to win races.
  userfaultfd: { x64: 323, arm64: 282 },
  // Large driver surface, and a side channel on other processes.
  perf_event_open: { x64: 298, arm64: 241 },
  // Replacing or extending the running kernel.
  kexec_load: { x64: 246, arm64: 104 },
  kexec_file_load: { x64: 320, arm64: 294 },
  init_module: { x64: 175, arm64: 105 },
  finit_module: { x64: 313, arm64: 273 },
  delete_module: { x64: 176, arm64: 106 },
  // Kernel keyrings are not namespaced; the keys are shared with the host.
  add_key: { x64: 248, arm64: 217 },
  request_key: { x64: 249, arm64: 218 },
  keyctl: { x64: 250, arm64: 219 },
  // Tracing the run's own processes (the forwarder included) is never needed, and ptrace is old, racy code.
  ptrace: { x64: 101, arm64: 117 },
  // Reading and writing another process's memory: ptrace's rights without ptrace.
  process_vm_readv: { x64: 310, arm64: 270 },
  process_vm_writev: { x64: 311, arm64: 271 },
  // File handles open files by inode, past the mount tree (the "shocker" container escape).
  open_by_handle_at: { x64: 304, arm64: 265 },
  name_to_handle_at: { x64: 303, arm64: 264 },
  // Mounting, old and new API: the file system is bubblewrap's to arrange, and fs parsers are bug-prone.
  mount: { x64: 165, arm64: 40 },
  umount2: { x64: 166, arm64: 39 },
  pivot_root: { x64: 155, arm64: 41 },
  open_tree: { x64: 428, arm64: 428 },
  move_mount: { x64: 429, arm64: 429 },
  fsopen: { x64: 430, arm64: 430 },
  fsconfig: { x64: 431, arm64: 431 },
  fsmount: { x64: 432, arm64: 432 },
  fspick: { x64: 433, arm64: 433 },
  mount_setattr: { x64: 442, arm64: 442 },
  // Host-wide administration: swap, power, clocks, process accounting, disk quotas.
  swapon: { x64: 167, arm64: 224 },
  swapoff: { x64: 168, arm64: 225 },
  reboot: { x64: 169, arm64: 142 },
  settimeofday: { x64: 164, arm64: 170 },
  clock_settime: { x64: 227, arm64: 112 },
  clock_adjtime: { x64: 305, arm64: 266 },
  adjtimex: { x64: 159, arm64: 171 },
  acct: { x64: 163, arm64: 89 },
  quotactl: { x64: 179, arm64: 60 },
  quotactl_fd: { x64: 443, arm64: 443 },
  // Namespaces: the sandbox made the run's; more only open kernel surface.
  unshare: { x64: 272, arm64: 97 },
  setns: { x64: 308, arm64: 268 },
  // Watching file-system events system-wide.
  fanotify_init: { x64: 300, arm64: 262 },
  // oprofile's leftover, gone from recent kernels; nothing calls it.
  lookup_dcookie: { x64: 212, arm64: 18 },
} as const satisfies Record<string, Readonly<Record<SeccompArch, number>>>;

export type DeniedSyscall = keyof typeof DENIED_SYSCALLS;

/** seccomp_data.arch of each supported architecture (AUDIT_ARCH_X86_64, AUDIT_ARCH_AARCH64). */
export const AUDIT_ARCH: Readonly<Record<SeccompArch, number>> = { x64: 0xc000003e, arm64: 0xc00000b7 };

/** On x86_64, numbers with this bit are x32-ABI calls, which arrive with the x86_64 arch value. */
const X32_SYSCALL_BIT = 0x40000000;

// Classic BPF opcodes (linux/bpf_common.h) and seccomp return values (linux/seccomp.h).
const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K
const OFFSET_NR = 0; // offsetof(struct seccomp_data, nr)
const OFFSET_ARCH = 4; // offsetof(struct seccomp_data, arch)
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const RET_ALLOW = 0x7fff0000;
const EPERM = 1;

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

function isSeccompArch(arch: string): arch is SeccompArch {
  return arch === 'x64' || arch === 'arm64';
}

/** The denied numbers of one architecture, ascending and without repeats. */
export function deniedNumbers(arch: SeccompArch): number[] {
  return [...new Set(Object.values(DENIED_SYSCALLS).map((n) => n[arch]))].sort((a, b) => a - b);
}

/**
 * The filter for bubblewrap's --seccomp (struct sock_filter records, little-endian), or undefined
 * on an architecture without a table here (the sandbox then runs without a filter).
 */
export function seccompProgram(arch: string = process.arch): Buffer | undefined {
  // The records are written little-endian, and AUDIT_ARCH above is of the little-endian variants.
  if (!isSeccompArch(arch) || endianness() !== 'LE') return undefined;
  const numbers = deniedNumbers(arch);
  const p: Insn[] = [
    { code: LD_W_ABS, jt: 0, jf: 0, k: OFFSET_ARCH },
    { code: JEQ_K, jt: 1, jf: 0, k: AUDIT_ARCH[arch] },
    { code: RET_K, jt: 0, jf: 0, k: RET_KILL_PROCESS },
    { code: LD_W_ABS, jt: 0, jf: 0, k: OFFSET_NR },
  ];
  // Every check jumps forward to one shared EPERM return placed after the final ALLOW; its offset
  // is filled in below, once the program's length is known.
  const toErrno: number[] = [];
  if (arch === 'x64') {
    toErrno.push(p.length);
    p.push({ code: JGE_K, jt: 0, jf: 0, k: X32_SYSCALL_BIT });
  }
  for (const nr of numbers) {
    toErrno.push(p.length);
    p.push({ code: JEQ_K, jt: 0, jf: 0, k: nr });
  }
  p.push({ code: RET_K, jt: 0, jf: 0, k: RET_ALLOW });
  const errno = p.length;
  p.push({ code: RET_K, jt: 0, jf: 0, k: RET_ERRNO | EPERM });
  for (const i of toErrno) {
    const offset = errno - i - 1;
    // jt is a u8: a longer list would need a tree of jumps.
    if (offset > 255) throw new Error(`seccomp: jump of ${offset} instructions does not fit in a BPF jump offset`);
    (p[i] as Insn).jt = offset;
  }
  const out = Buffer.alloc(p.length * 8);
  p.forEach((insn, i) => {
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(insn.jt, i * 8 + 2);
    out.writeUInt8(insn.jf, i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}
