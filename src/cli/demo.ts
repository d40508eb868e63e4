/**
 * `biomirror demo [service]`: loads a service's demo data again (every service's without one), as
 * a new load that replaces what is served, the way back after a load of one's own.
 */
import { LoadAborted } from '../core/ingest/errors.js';
import { runLoad } from '../core/ingest/load.js';
import { progressFor } from '../core/ingest/progress.js';
import { describeLoad } from '../core/ingest/report.js';
import { SERVICES, findService } from '../services/registry.js';
import { createLogger, openRuntime } from '../server/serve.js';
import { configFrom, type CommonFlags } from './flags.js';
import { dropKeptAnswers } from './kept.js';
import { loadStopper } from './stop.js';

export async function demoCommand(args: string[], flags: CommonFlags): Promise<number> {
  const [serviceId, ...extra] = args;
  if (extra.length) {
    process.stderr.write('usage: biomirror demo [service]\n');
    return 2;
  }
  const services = serviceId === undefined ? SERVICES.filter((s) => s.datasets.some((d) => d.demo)) : [findService(serviceId)];
  const service = services[0];
  if (!service) {
    process.stderr.write(`unknown service "${serviceId}"; services: ${SERVICES.map((s) => s.id).join(', ')}\n`);
    return 2;
  }
  if (serviceId !== undefined && !service.datasets.some((d) => d.demo)) {
    process.stderr.write(`${service.id} has no demo data of its own\n`);
    return 2;
  }
  const config = configFrom(flags);
  const log = createLogger('warn');
  const rt = await openRuntime(config, services as NonNullable<(typeof services)[number]>[], log);
  const stopper = loadStopper('stopping: the demo data being loaded is discarded, the data served before stays');
  try {
    for (const s of services) {
      if (!s) continue;
      for (const ds of s.datasets) {
        if (!ds.demo) continue;
        const result = await runLoad(rt.db, rt.generations, ds, ds.demo, { source: `demo:${s.id}/${ds.name}`, progress: progressFor(process.stderr), signal: stopper.signal });
        for (const line of describeLoad(`${s.id}/${ds.name}`, result)) process.stdout.write(line + '\n');
      }
      await dropKeptAnswers(rt.db, s.id);
      await s.prepare?.({ db: rt.db, generations: rt.generations, log: log.child({ service: s.id }) });
    }
    return 0;
  } catch (err) {
    if (err instanceof LoadAborted) {
      process.stderr.write(`\nbiomirror demo: ${err.message}\n`);
      return 130;
    }
    process.stderr.write(`\nbiomirror demo failed, the data served before is unchanged: ${(err as Error).message}\n`);
    return 1;
  } finally {
    stopper.dispose();
    await rt.close();
  }
}
