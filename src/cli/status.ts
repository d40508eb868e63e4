import { loadTiming } from '../core/ingest/report.js';
import { SERVICES } from '../services/registry.js';
import { standsFor } from '../services/types.js';
import { createLogger, openRuntime } from '../server/serve.js';
import { ownPort, ownPortOrigin } from '../server/config.js';
import { statusReport } from '../server/status.js';
import { configFrom, type CommonFlags } from './flags.js';
import { readRunning } from './running.js';

export async function statusCommand(flags: CommonFlags & { json?: boolean | undefined }): Promise<number> {
  const config = configFrom(flags);
  const rt = await openRuntime(config, SERVICES, createLogger('warn'));
  try {
    // The address of the server running over this data, else the one `serve` would take.
    const running = readRunning(config.dataDir);
    const origin = running?.url ?? `http://${config.host}:${config.port}`;
    const report = await statusReport(rt, SERVICES, origin, true);
    if (flags.json) {
      process.stdout.write(JSON.stringify({ ...report, server: running ? { url: running.url, pid: running.pid, startedAt: running.startedAt } : null }, null, 2) + '\n');
      return 0;
    }
    process.stdout.write(`database: ${report.database}\n`);
    const server = !running
      ? `not running (serve would listen on ${origin})`
      : running.url
        ? `${running.url} (pid ${running.pid}, since ${running.startedAt})`
        : `starting (pid ${running.pid}, since ${running.startedAt})`;
    process.stdout.write(`server: ${server}\n`);
    for (const s of report.services) {
      process.stdout.write(`\n${s.id} — ${s.title}\n`);
      const module = SERVICES.find((m) => m.id === s.id);
      for (const [k, v] of Object.entries(s.baseUrls)) process.stdout.write(`  ${module ? standsFor(module, k) : k} = ${v}\n`);
      const kept = s.pullThrough;
      if (kept.count)
        process.stdout.write(
          `  kept from the upstream (pull-through): ${kept.count.toLocaleString('en-US')} answers, ${kept.bytes.toLocaleString('en-US')} bytes, fetched ${kept.oldest ?? '?'} to ${kept.newest ?? '?'}\n`,
        );
      for (const d of s.datasets) {
        if (d.generation === null) {
          process.stdout.write(`  ${d.dataset}: not loaded\n`);
          continue;
        }
        const l = d as {
          records: number;
          skipped?: number;
          source?: string;
          release?: string | null;
          loadedAt?: string | null;
          mode?: unknown;
          changes?: { base?: number };
          seconds?: number | null;
          readSeconds?: number;
          finishSeconds?: number;
          steps?: { step: string; seconds: number }[];
        };
        const how = l.mode === 'update' ? `updated ${l.loadedAt ?? '?'} from generation ${l.changes?.base ?? '?'}` : `loaded ${l.loadedAt ?? '?'}`;
        process.stdout.write(
          `  ${d.dataset}: ${l.records.toLocaleString('en-US')} records (generation ${d.generation}), ${how}\n` +
            `    source ${l.source ?? '?'}${l.release ? `, release ${l.release}` : ''}${l.skipped ? `, ${l.skipped} skipped` : ''}\n`,
        );
        if (l.steps && l.seconds != null && l.readSeconds !== undefined && l.finishSeconds !== undefined) {
          process.stdout.write(`  ${loadTiming({ seconds: l.seconds, timing: { readSeconds: l.readSeconds, finishSeconds: l.finishSeconds, steps: l.steps } })}\n`);
        }
      }
    }
    return 0;
  } finally {
    await rt.close();
  }
}

export function servicesCommand(flags: CommonFlags): number {
  const config = configFrom(flags);
  const origin = `http://${config.host}:${config.port}`;
  for (const s of SERVICES) {
    process.stdout.write(`${s.id}\t${s.title}\n`);
    for (const [k, v] of Object.entries(s.baseUrls)) process.stdout.write(`  ${standsFor(s, k)} = ${origin}${s.mount}${v}\n`);
    const p = ownPort(config, s);
    const own = p === undefined ? 'none (past port 65535: choose a lower --port)' : p === 0 ? 'any free port' : String(p);
    process.stdout.write(`  own port with --port-per-service: ${own} (${ownPortOrigin(config, s)})\n`);
  }
  return 0;
}
