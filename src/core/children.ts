/**
 * The programs (MMseqs2, TM-align) and threads (index builds) this process starts for its work,
 * so that a process told to stop ends them instead of waiting for them: an index build runs for
 * minutes, and a program left behind would go on writing into the data folder.
 *
 * Each program runs in a process group of its own, ended as a whole: MMseqs2's workflows are shell
 * scripts that start further programs, which a signal to the script alone would leave running. A
 * program started by a worker thread is reported to the main thread (which ends them all) through
 * a broadcast channel, since the thread may be terminated before it could end its programs itself.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { BroadcastChannel, isMainThread, type Worker } from 'node:worker_threads';

const own = new Set<ChildProcess>();
/** Programs started by worker threads, by pid (main thread only). */
const reported = new Set<number>();
const workers = new Set<Worker>();
let ending = false;

interface Report {
  pid: number;
  running: boolean;
}

const channel = new BroadcastChannel('biomirror:children');
if (isMainThread) {
  channel.onmessage = (e: MessageEvent) => {
    const r = e.data as Report;
    if (!r.running) reported.delete(r.pid);
    else if (ending) killGroup(r.pid);
    else reported.add(r.pid);
  };
}
// The channel alone never keeps a thread alive.
channel.unref();

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Kills a program started by spawnOwned with everything it started. */
export function killOwned(child: ChildProcess): void {
  killGroup(child.pid);
}

/** `spawn`, in a process group of its own, ended with the process (see endOwned). */
export function spawnOwned(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  const pid = child.pid;
  if (pid === undefined) return child; // it could not start: its 'error' event says why
  own.add(child);
  if (!isMainThread) channel.postMessage({ pid, running: true } satisfies Report);
  child.once('exit', () => {
    own.delete(child);
    if (!isMainThread) channel.postMessage({ pid, running: false } satisfies Report);
  });
  if (ending) killGroup(pid);
  return child;
}

/** A worker thread ended with the process (see endOwned). */
export function ownWorker(w: Worker): Worker {
  workers.add(w);
  w.once('exit', () => workers.delete(w));
  if (ending) void w.terminate();
  return w;
}

/**
 * The process is ending: its threads are terminated and its programs killed, and any started from
 * now on are ended at once. Only for a process about to exit (a server's close in a test leaves
 * other servers' work alone).
 */
export function endOwned(): void {
  ending = true;
  for (const w of workers) void w.terminate();
  for (const c of own) killGroup(c.pid);
  for (const pid of reported) killGroup(pid);
}

/** What is still running (for the log of a shutdown that had to cut things short). */
export function ownedRunning(): { programs: number; threads: number } {
  return { programs: own.size + reported.size, threads: workers.size };
}
