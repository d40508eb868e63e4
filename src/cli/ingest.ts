import { resolve } from 'node:path';
import { FormatError, LoadAborted, UpdateRefused } from '../core/ingest/errors.js';
import { runLoad } from '../core/ingest/load.js';
import { progressFor } from '../core/ingest/progress.js';
import { describeLoad, spaceNote } from '../core/ingest/report.js';
import { sqlitePath } from '../core/store/open.js';
import { SERVICES, findService } from '../services/registry.js';
import { loadsNothing } from '../services/types.js';
import { createLogger, openRuntime } from '../server/serve.js';
import { configFrom, type CommonFlags } from './flags.js';
import { dropKeptAnswers } from './kept.js';
import { loadStopper } from './stop.js';

export interface IngestFlags extends CommonFlags {
  dataset?: string | undefined;
  release?: string | undefined;
  'batch-size'?: string | undefined;
  update?: boolean | undefined;
}

const SHOW_SKIPS = 50;

export async function ingestCommand(args: string[], flags: IngestFlags): Promise<number> {
  const [serviceId, input, ...extra] = args;
  if (!serviceId || !input || extra.length) {
    process.stderr.write('usage: biomirror ingest <service> <file-or-folder> [--dataset name] [--release date] [--update]\n');
    return 2;
  }
  const service = findService(serviceId);
  if (!service) {
    process.stderr.write(`unknown service "${serviceId}"; services: ${SERVICES.map((s) => s.id).join(', ')}\n`);
    return 2;
  }
  if (service.datasets.length === 0) {
    process.stderr.write(`${loadsNothing(service)}\n`);
    return 2;
  }
  const ds = flags.dataset ? service.datasets.find((d) => d.name === flags.dataset) : service.datasets[0];
  if (!ds || (!flags.dataset && service.datasets.length > 1)) {
    process.stderr.write(`${service.id} has datasets ${service.datasets.map((d) => d.name).join(', ')}; choose one with --dataset\n`);
    return 2;
  }
  const batchSize = flags['batch-size'] ? Number(flags['batch-size']) : undefined;
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1)) {
    process.stderr.write('--batch-size must be a positive integer\n');
    return 2;
  }

  const config = configFrom(flags);
  const log = createLogger('warn');
  const rt = await openRuntime(config, [service], log);
  const stopper = loadStopper('stopping: the new data is being discarded, the data served before stays');
  let shown = 0;
  try {
    const result = await runLoad(rt.db, rt.generations, ds, input, {
      source: resolve(input),
      ...(flags.update ? { update: true } : {}),
      progress: progressFor(process.stderr),
      signal: stopper.signal,
      ...(batchSize ? { batchSize } : {}),
      ...(flags.release ? { release: flags.release } : {}),
      onSkip: (place, reason) => {
        if (shown++ < SHOW_SKIPS) process.stderr.write(`\nskipped ${place.file} at ${place.position}: ${reason}\n`);
        else if (shown === SHOW_SKIPS + 1) process.stderr.write('\n(further skipped records are counted, not listed)\n');
      },
    });
    for (const line of describeLoad(`${service.id}/${ds.name}`, result)) process.stdout.write(line + '\n');
    // A replacing load drops the answers kept from the upstream: the loaded release speaks now.
    if (!flags.update) await dropKeptAnswers(rt.db, service.id);
    const note = spaceNote(result, config.databaseUrl ? undefined : sqlitePath(config));
    if (note) process.stderr.write(note + '\n');
    return 0;
  } catch (err) {
    if (err instanceof FormatError || err instanceof LoadAborted || err instanceof UpdateRefused) {
      process.stderr.write(`\nbiomirror ingest: ${err.message}\n`);
      return err instanceof LoadAborted ? 130 : 2;
    }
    process.stderr.write(`\nbiomirror ingest failed, the data served before is unchanged: ${(err as Error).message}\n`);
    return 1;
  } finally {
    stopper.dispose();
    await rt.close();
  }
}
