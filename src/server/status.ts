import { KeptStore } from '../core/pullthrough/store.js';
import type { ServiceModule } from '../services/types.js';
import type { AppDeps } from './app.js';

/** The provenance of what is served: per service, its base URLs and each dataset's current load. */
export async function statusReport(deps: Pick<AppDeps, 'generations' | 'storeDescription' | 'db' | 'readiness'>, services: readonly ServiceModule[], origin: string, prefixed: boolean) {
  const out = [];
  const kept = new Map((await (await KeptStore.open(deps.db)).summary()).map((k) => [k.service, k]));
  for (const s of services) {
    const served = await deps.generations.served(s.id);
    const datasets = s.datasets.map((d) => {
      const l = served.find((x) => x.dataset === d.name);
      return l
        ? {
            dataset: d.name,
            generation: l.id,
            source: l.source,
            release: l.release,
            records: l.records,
            skipped: l.skipped,
            loadedAt: l.finishedAt,
            startedAt: l.startedAt,
            seconds: l.details?.seconds ?? null,
            // A full load replaced what was served; an update started from it and changed these.
            mode: l.details?.mode ?? 'full',
            ...(l.details?.noun !== undefined ? { items: l.details.items, noun: l.details.noun } : {}),
            ...(l.details?.changes !== undefined ? { changes: l.details.changes } : {}),
            ...(l.details?.replaced !== undefined ? { replaced: l.details.replaced } : {}),
            // Where a long load's time went (datasets that name their finishing steps).
            ...(l.details?.steps !== undefined ? { readSeconds: l.details.readSeconds, finishSeconds: l.details.finishSeconds, steps: l.details.steps } : {}),
          }
        : { dataset: d.name, generation: null, records: 0, note: 'not loaded' };
    });
    const base = prefixed ? s.mount : '';
    const ready = deps.readiness?.report([s])[s.id];
    out.push({
      id: s.id,
      title: s.title,
      // loading, ready or failed: a server answers before its demo data is loaded (GET /ready).
      state: ready?.state ?? 'ready',
      ...(ready?.step ? { step: ready.step } : {}),
      baseUrls: Object.fromEntries(Object.entries(s.baseUrls).map(([k, v]) => [k, `${origin}${base}${v}`])),
      datasets,
      // Answers kept from the upstream (docs/pull-through.md), served where nothing loaded answers.
      pullThrough: { count: kept.get(s.id)?.count ?? 0, bytes: kept.get(s.id)?.bytes ?? 0, oldest: kept.get(s.id)?.oldest ?? null, newest: kept.get(s.id)?.newest ?? null },
    });
  }
  return { database: deps.storeDescription, services: out };
}
