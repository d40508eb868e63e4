/**
 * The built `biomirror` command run as a process, awaited: the test runner's own messages keep
 * flowing meanwhile (blocking calls that add up to a minute, as several do on a busy machine, make
 * it report a timeout).
 */
import { spawn } from 'node:child_process';

export async function runCli(cli: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, out, err };
}
