/**
 * protocols.io has no bulk download: its API lists public protocols (`GET /api/v3/protocols
 * ?filter=public`, 100 a page) and gives each one whole (`GET /api/v3/protocols/{id}`), to a
 * token holder, at most 100 requests a minute. The harvester lists newest first and saves each
 * protocol it does not have yet as the API returns it, noting the page it reached; once a full
 * listing has finished, a later run stops at the first page holding nothing new.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FetchError, UsageError } from '../errors.js';
import type { HarvestContext, HarvestResult, HarvestSource } from '../plan.js';
import { upstreamUrl } from '../upstreams.js';
import { isoDay, readState, writeAtomic, writeState } from './state.js';

interface State {
  /** A full listing has finished once: later runs may stop at known protocols. */
  complete?: boolean;
  /** A listing under way: the next page to ask for. */
  page?: number;
  /** When the last run finished. */
  harvestedOn?: string;
}

type ListPage = { items?: unknown[]; total_pages?: unknown; pagination?: { total_pages?: unknown }; status_code?: unknown; error_message?: unknown };

function apiFailure(url: string, body: { status_code?: unknown; error_message?: unknown }): FetchError | undefined {
  if (body.status_code === undefined || body.status_code === 0) return undefined;
  return new FetchError(`${url}: the API answered status_code ${String(body.status_code)}${body.error_message ? ` (${String(body.error_message)})` : ''}`);
}

export const protocols: HarvestSource = {
  kind: 'harvest',
  service: 'protocols',
  dataset: 'protocols',
  summary: 'protocols.io API (no bulk download): public protocols listed newest first and fetched one by one with your access token, 100 requests a minute; later runs fetch only new ones',
  accepts: ['token', 'limit'],
  upstreams: ['protocols'],
  async harvest(ctx: HarvestContext): Promise<HarvestResult> {
    const token = ctx.opts.token ?? process.env.BIOMIRROR_PROTOCOLS_TOKEN;
    if (!token) {
      throw new UsageError('the protocols.io API needs an access token: give it with --token or BIOMIRROR_PROTOCOLS_TOKEN (a client access token from your protocols.io account)');
    }
    const auth = { authorization: `Bearer ${token}` };
    const state = await readState<State>(ctx.dir, {});
    const input = join(ctx.dir, 'protocols');
    const source = `${upstreamUrl(ctx.upstreams, 'protocols', 'api/v3/protocols')}?filter=public (harvested)`;
    ctx.http.pace(Number(process.env.BIOMIRROR_HARVEST_SPACING_MS ?? 600));
    const refused = (err: unknown) => {
      if (err instanceof FetchError && /answered 40[13]/.test(err.message)) return new FetchError(`${err.message}: the token was refused`);
      return err;
    };

    let page = state.page ?? 1;
    if (state.page) ctx.note(`resuming the listing at page ${page}`);
    let fetched = 0;
    let stop = false;
    while (!stop) {
      const url = `${upstreamUrl(ctx.upstreams, 'protocols', 'api/v3/protocols')}?filter=public&order_field=date&order_dir=desc&page_size=100&page_id=${page}`;
      const body = (await ctx.http.json(url, auth).catch((e: unknown) => Promise.reject(refused(e)))) as ListPage;
      const failure = apiFailure(url, body);
      if (failure) throw failure;
      if (!Array.isArray(body.items)) throw new FetchError(`${url}: not a protocol list (no items)`);
      let known = 0;
      for (const item of body.items) {
        const id = (item as { id?: unknown }).id;
        if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) continue;
        const file = join(input, `${id}.json`);
        if (existsSync(file)) {
          known++;
          continue;
        }
        if (ctx.opts.limit !== undefined && fetched >= ctx.opts.limit) {
          stop = true;
          break;
        }
        const one = `${upstreamUrl(ctx.upstreams, 'protocols', `api/v3/protocols/${id}`)}`;
        const answer = (await ctx.http.json(one, auth).catch((e: unknown) => Promise.reject(refused(e)))) as { status_code?: unknown };
        const bad = apiFailure(one, answer);
        if (bad) throw bad;
        await writeAtomic(file, JSON.stringify(answer));
        fetched++;
        if (fetched % 50 === 0) ctx.note(`harvested ${fetched.toLocaleString('en-US')} protocols (listing page ${page})`);
      }
      const totalPages = Number(body.total_pages ?? body.pagination?.total_pages);
      const last = body.items.length === 0 || (Number.isFinite(totalPages) && page >= totalPages);
      // Newest first: once the whole list was read before, a page of known protocols is where the new ones end.
      if (state.complete && body.items.length > 0 && known === body.items.length) stop = true;
      if (last) {
        stop = true;
        state.complete = true;
      }
      page++;
      state.page = stop ? undefined : page;
      await writeState(ctx.dir, state);
    }
    state.harvestedOn = isoDay(Date.now());
    await writeState(ctx.dir, state);
    ctx.note(`harvest done: ${fetched.toLocaleString('en-US')} new protocols`);
    return { changed: fetched > 0, input, source, release: state.harvestedOn };
  },
};
