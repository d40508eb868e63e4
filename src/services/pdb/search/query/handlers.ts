/**
 * The Search API's operations, free of HTTP: a request body in, the response body (or nothing,
 * for no hits) out.
 */
import type { Db } from '../../../../core/store/db.js';
import type { Generations } from '../../../../core/store/generations.js';
import { scopeOf, search, type TerminalPager, type TerminalRunner } from './engine.js';
import { prepareEngineIndexes } from '../build/engine-indexes.js';
import { groupResults } from './groups.js';
import { readRequest, type Service } from './request.js';

export type Runners = Partial<Record<Service, TerminalRunner>>;
export type Pagers = Partial<Record<Service, TerminalPager>>;

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** The response body, or undefined for no hits (the service answers 204 with an empty body). */
export async function runQuery(db: Db, generations: Generations, body: unknown, runners: Runners, pagers: Pagers = {}, requestHost?: string): Promise<Record<string, unknown> | undefined> {
  const req = readRequest(body);
  const scope = { ...(await scopeOf(db, generations)), requestHost };
  prepareEngineIndexes(scope);
  const out = await search(scope, req, runners, pagers);
  const total = out.total;
  if (total === 0) return undefined;
  const res: Record<string, unknown> = { query_id: req.query_id, result_type: req.return_type, total_count: total };
  const grouped = req.group_by ? await groupResults(scope, req, out.ranked) : undefined;
  if (grouped) {
    res.group_by_count = grouped.groups.length;
    if (grouped.ungrouped > 0) res.ungrouped_count = grouped.ungrouped;
  }
  if (!req.return_counts) {
    // Hits come paged from the search, groups are paged here.
    const page = (list: unknown[]) => (req.return_all_hits ? list : list.slice(req.paginate.start, req.paginate.start + req.paginate.rows));
    const item = (r: (typeof out.ranked)[number]) => {
      if (req.verbosity === 'compact') return r.id;
      const o: Record<string, unknown> = { identifier: r.id, score: round(r.score) };
      if (req.verbosity === 'verbose') o.services = servicesOf(r.nodes ?? []);
      return o;
    };
    if (grouped) {
      res.group_set = page(grouped.groups).map((g) => {
        const group = g as (typeof grouped.groups)[number];
        if (req.group_by_return_type === 'representatives') return item(group.hits[0] as (typeof out.ranked)[number]);
        // The group's best hit is its representative (the response schema requires one).
        const best = group.hits[0] as (typeof out.ranked)[number];
        return { identifier: group.key, score: round(group.score), count: group.hits.length, representative: item(best), result_set: group.hits.map(item) };
      });
      if (req.group_by_return_type === 'representatives') {
        res.result_set = res.group_set;
        delete res.group_set;
      }
    } else {
      res.result_set = out.ranked.map(item);
    }
  }
  if (out.facets) res.facets = out.facets;
  if (req.explain) {
    res.explain_metadata = {
      total_timing: Math.round(out.timings.total),
      sort_timing: Math.round(out.timings.sort),
      facet_timing: Math.round(out.timings.facets),
      terminal_node_timings: Object.fromEntries([...out.timings.nodes].map(([k, v]) => [String(k), Math.round(v)])),
    };
  }
  return res;
}

function servicesOf(nodes: { service: string; node_id: number; original_score: number; norm_score: number; match_context?: unknown[] }[]) {
  const by = new Map<string, Record<string, unknown>[]>();
  for (const n of nodes) {
    const o: Record<string, unknown> = { node_id: n.node_id, original_score: round(n.original_score), norm_score: round(n.norm_score) };
    if (n.match_context) o.match_context = n.match_context;
    by.set(n.service, [...(by.get(n.service) ?? []), o]);
  }
  return [...by].map(([service_type, list]) => ({ service_type, nodes: list }));
}
