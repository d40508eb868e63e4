/**
 * bioRxiv has no bulk download: its public API pages `details` (every posted version) and `pubs`
 * (preprints published in journals) by date interval, 100 records a page with a cursor, and asks
 * for at least half a second between requests. The harvester saves each page as the API returns
 * it, month by month, noting after each page where it stands; a later run starts from the day
 * after the last one harvested. The folder of saved pages is what `biomirror ingest biorxiv` reads.
 */
import { join } from 'node:path';
import { FetchError, UsageError } from '../errors.js';
import type { HarvestContext, HarvestResult, HarvestSource } from '../plan.js';
import { upstreamUrl } from '../upstreams.js';
import { addDays, isoDay, months, readState, validDay, writeAtomic, writeState } from './state.js';

/** bioRxiv's first postings. */
const FIRST_DAY = '2013-11-01';
const ENDPOINTS = ['details', 'pubs'] as const;

interface Chunk {
  endpoint: (typeof ENDPOINTS)[number];
  from: string;
  to: string;
  cursor: number;
  done: boolean;
}

interface State {
  /** The last day of the last harvest that finished. */
  through?: string;
  /** A harvest under way: its interval and where each month stands. */
  run?: { from: string; to: string; chunks: Chunk[] };
}

type Page = { messages?: { status?: unknown; total?: unknown }[]; collection?: unknown[] };

function day(opt: string | undefined, name: string): string | undefined {
  if (opt !== undefined && !validDay(opt)) throw new UsageError(`--${name} ${opt}: expected a date as YYYY-MM-DD`);
  return opt;
}

export const preprints: HarvestSource = {
  kind: 'harvest',
  service: 'biorxiv',
  dataset: 'preprints',
  summary: 'bioRxiv API (no bulk download): details/biorxiv and pubs/biorxiv pages harvested by month, 0.5 s apart; later runs fetch only days after the last harvest',
  accepts: ['from', 'to'],
  upstreams: ['biorxiv'],
  async harvest(ctx: HarvestContext): Promise<HarvestResult> {
    const state = await readState<State>(ctx.dir, {});
    const base = upstreamUrl(ctx.upstreams, 'biorxiv', '');
    const source = `${base}details/biorxiv and ${base}pubs/biorxiv (harvested pages)`;
    const input = join(ctx.dir, 'pages');
    ctx.http.pace(Number(process.env.BIOMIRROR_HARVEST_SPACING_MS ?? 500));
    if (state.run && (ctx.opts.from || ctx.opts.to)) {
      ctx.note(`an interrupted harvest of ${state.run.from}..${state.run.to} is finished first; run again for --from/--to`);
    }
    if (!state.run) {
      const from = day(ctx.opts.from, 'from') ?? (state.through ? addDays(state.through, 1) : FIRST_DAY);
      // Yesterday: today's postings are still coming in.
      const to = day(ctx.opts.to, 'to') ?? isoDay(Date.now() - 86_400_000);
      if (from > to && ctx.opts.from && ctx.opts.to) throw new UsageError(`--from ${from} is after --to ${to}`);
      if (from > to) {
        ctx.note(`nothing new to harvest: the last harvest reached ${state.through ?? to}`);
        return { changed: false, input, source, ...(state.through ? { release: state.through } : {}) };
      }
      const chunks = ENDPOINTS.flatMap((endpoint) => months(from, to).map(([f, t]) => ({ endpoint, from: f, to: t, cursor: 0, done: false })));
      state.run = { from, to, chunks };
      await writeState(ctx.dir, state);
    } else ctx.note(`resuming the harvest of ${state.run.from}..${state.run.to}`);

    const run = state.run;
    let pages = 0;
    let records = 0;
    for (const chunk of run.chunks) {
      while (!chunk.done) {
        const url = `${base}${chunk.endpoint}/biorxiv/${chunk.from}/${chunk.to}/${chunk.cursor}/json`;
        const page = (await ctx.http.json(url)) as Page;
        const message = Array.isArray(page?.messages) ? page.messages[0] : undefined;
        if (!message || !Array.isArray(page.collection)) throw new FetchError(`${url}: not a bioRxiv API page (no messages and collection)`);
        const items = page.collection;
        if (message.status !== 'ok' && items.length > 0) throw new FetchError(`${url}: the API answered status "${String(message.status)}"`);
        if (items.length) {
          const name = `${chunk.endpoint}-${chunk.from}-${chunk.to}-${String(chunk.cursor).padStart(7, '0')}.json`;
          await writeAtomic(join(input, name), JSON.stringify(page));
          pages++;
          records += items.length;
        }
        chunk.cursor += items.length;
        const total = Number(message.total);
        if (items.length === 0 || (Number.isFinite(total) && chunk.cursor >= total)) chunk.done = true;
        await writeState(ctx.dir, state);
        if (pages > 0 && pages % 20 === 0) ctx.note(`harvested ${records.toLocaleString('en-US')} records in ${pages} pages; now ${chunk.endpoint} ${chunk.from}..${chunk.to}`);
      }
    }
    state.through = state.through && state.through > run.to ? state.through : run.to;
    delete state.run;
    await writeState(ctx.dir, state);
    ctx.note(`harvest done: ${records.toLocaleString('en-US')} records in ${pages} pages, through ${run.to}`);
    return { changed: pages > 0, input, source, release: state.through };
  },
};
