/**
 * A search request as the Search API takes it: checked against the published request schema
 * (each terminal's parameters against its service's own schema, so a message names the real
 * problem), then read into the typed form the engine runs.
 */
import { randomUUID } from 'node:crypto';
import { badQuery } from '../../errors.js';
import { requestSchema, validate, type Violation } from './validate.js';

export type Service = 'full_text' | 'text' | 'text_chem' | 'sequence' | 'structure' | 'chemical' | 'seqmotif' | 'strucmotif';
export type ReturnType = 'entry' | 'polymer_entity' | 'non_polymer_entity' | 'polymer_instance' | 'assembly' | 'mol_definition';

export interface Terminal {
  type: 'terminal';
  service: Service;
  node_id: number;
  parameters: Record<string, unknown>;
}
export interface Group {
  type: 'group';
  logical_operator: 'and' | 'or';
  nodes: Node[];
}
export type Node = Terminal | Group;

export interface FacetSpec {
  name?: string;
  aggregation_type?: string;
  attribute?: string;
  interval?: number | string;
  ranges?: { from?: number | string; to?: number | string }[];
  min_interval_population?: number;
  max_num_intervals?: number;
  precision_threshold?: number;
  filter?: FilterNode;
  facets?: FacetSpec[];
}
export type FilterNode = { type: 'terminal'; parameters: Record<string, unknown> } | { type: 'group'; logical_operator: 'and' | 'or'; nodes: FilterNode[] };

export interface SortSpec {
  sort_by: string;
  direction: 'asc' | 'desc';
  filter?: FilterNode;
}

export interface SearchRequest {
  query: Node | undefined;
  return_type: ReturnType;
  query_id: string;
  paginate: { start: number; rows: number };
  verbosity: 'minimal' | 'compact' | 'verbose';
  content: Set<'experimental' | 'computational'>;
  sort: SortSpec[];
  facets: FacetSpec[];
  return_all_hits: boolean;
  return_counts: boolean;
  explain: boolean;
  scoring: string;
  group_by: Record<string, unknown> | undefined;
  group_by_return_type: 'groups' | 'representatives';
}

/** The parameter schemas a service's terminal may take. */
const PARAMETERS: Record<Service, string[]> = {
  full_text: ['json-schema-rcsb_search_query_parameters_full_text.json'],
  text: ['json-schema-rcsb_search_query_parameters_attribute_text.json'],
  text_chem: ['json-schema-rcsb_search_query_parameters_attribute_text.json'],
  sequence: ['json-schema-rcsb_search_query_parameters_sequence.json'],
  structure: ['json-schema-rcsb_search_query_parameters_structure.json'],
  chemical: ['json-schema-rcsb_search_query_parameters_chemical_descriptor.json', 'json-schema-rcsb_search_query_parameters_chemical_formula.json'],
  seqmotif: ['json-schema-rcsb_search_query_parameters_seqmotif.json'],
  strucmotif: ['json-schema-rcsb_search_query_parameters_strucmotif.json'],
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Nodes deeper than this are refused (the published schema sets no bound; a stack does). */
const MAX_DEPTH = 32;
const MAX_TERMINALS = 256;
/**
 * Values of `in` conditions over a whole request (query, sort, facet and group filters): each is
 * one parameter of a statement (a case-sensitive one two; a value over 512 characters one more,
 * so at most twice the count), and SQLite takes at most 32,766.
 */
const MAX_IN_VALUES = 10_000;

/** The parameters the `in` conditions of a request take; a 400 past MAX_IN_VALUES. */
function checkInValues(body: Record<string, unknown>): void {
  let n = 0;
  const walk = (v: unknown, depth: number): void => {
    if (depth > 2 * MAX_DEPTH || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (o.operator === 'in' && Array.isArray(o.value)) n += o.value.length * (o.case_sensitive === true ? 2 : 1);
    for (const x of Object.values(o)) walk(x, depth + 1);
  };
  walk([body.query, body.request_options], 0);
  if (n > MAX_IN_VALUES) throw badQuery(`The request's in conditions hold ${n} values (a case-sensitive one counts twice); at most ${MAX_IN_VALUES} are taken`);
}

/** Violations in terminals' parameters, each checked against its own service's schema. */
function parameterViolations(node: unknown, path: string, depth: number, count: { n: number }): Violation[] {
  if (depth > MAX_DEPTH) throw badQuery(`The query is nested deeper than ${MAX_DEPTH} levels`);
  if (!isObject(node)) return [];
  if (node.type === 'group' && Array.isArray(node.nodes)) {
    return node.nodes.flatMap((n, i) => parameterViolations(n, `${path}.nodes[${i}]`, depth + 1, count));
  }
  if (node.type !== 'terminal') return [];
  if (++count.n > MAX_TERMINALS) throw badQuery(`The query has more than ${MAX_TERMINALS} terminal nodes`);
  const schemas = typeof node.service === 'string' ? PARAMETERS[node.service as Service] : undefined;
  if (!schemas) return [];
  if (node.parameters === undefined) {
    return node.service === 'full_text' || node.service === 'text' ? [{ path: `${path}.parameters`, message: `${path}.parameters is required for the ${node.service} service` }] : [];
  }
  let best: Violation[] | undefined;
  for (const file of schemas) {
    // A chemical terminal's form is chosen by its `type`.
    if (node.service === 'chemical' && isObject(node.parameters) && node.parameters.type === 'formula' && file.includes('descriptor')) continue;
    const v = validate(requestSchema(file), node.parameters, `${path}.parameters`);
    if (v.length === 0) return [];
    best ??= v;
  }
  return best ?? [];
}

function fail(violations: Violation[]): never {
  const first = violations[0] as Violation;
  throw badQuery(`JSON schema validation failed for query: ${first.message}`);
}

function readNode(raw: Record<string, unknown>, ids: { next: number }): Node {
  if (raw.type === 'group') {
    return { type: 'group', logical_operator: raw.logical_operator as 'and' | 'or', nodes: (raw.nodes as Record<string, unknown>[]).map((n) => readNode(n, ids)) };
  }
  const nodeId = typeof raw.node_id === 'number' ? raw.node_id : ids.next;
  ids.next = Math.max(ids.next, nodeId) + 1;
  return { type: 'terminal', service: raw.service as Service, node_id: nodeId, parameters: (raw.parameters as Record<string, unknown>) ?? {} };
}

/** Reads and checks a request body; throws a 400 naming what is wrong. */
export function readRequest(body: unknown): SearchRequest {
  if (!isObject(body)) throw badQuery('The request body must be a JSON object');
  const pv = parameterViolations(body.query, 'query', 0, { n: 0 });
  if (pv.length) fail(pv);
  const v = validate(requestSchema('json-schema-rcsb_search_query.json'), body);
  if (v.length) fail(v);
  checkInValues(body);
  const opts = (body.request_options ?? {}) as Record<string, unknown>;
  const info = (body.request_info ?? {}) as Record<string, unknown>;
  const returnAll = opts.return_all_hits === true;
  const counts = opts.return_counts === true;
  if (returnAll && (opts.paginate !== undefined || counts)) {
    throw badQuery('return_all_hits cannot be used together with paginate or return_counts');
  }
  const pg = (opts.paginate ?? {}) as { start?: number; rows?: number };
  const sort = ((opts.sort as Record<string, unknown>[] | undefined) ?? []).map((s) => ({
    sort_by: String(s.sort_by),
    direction: (s.direction === 'asc' ? 'asc' : 'desc') as 'asc' | 'desc',
    ...(s.filter ? { filter: s.filter as FilterNode } : {}),
  }));
  const content = new Set<'experimental' | 'computational'>((opts.results_content_type as ('experimental' | 'computational')[] | undefined) ?? ['experimental']);
  const query = isObject(body.query) ? readNode(body.query, { next: 0 }) : undefined;
  const rt = body.return_type as ReturnType;
  if (opts.group_by !== undefined) checkGroupBy(opts.group_by as Record<string, unknown>, rt);
  return {
    query,
    return_type: rt,
    query_id: typeof info.query_id === 'string' ? info.query_id : randomUUID(),
    paginate: { start: pg.start ?? 0, rows: pg.rows ?? 10 },
    verbosity: (opts.results_verbosity as SearchRequest['verbosity'] | undefined) ?? 'minimal',
    content,
    sort,
    facets: (opts.facets as FacetSpec[] | undefined) ?? [],
    return_all_hits: returnAll,
    return_counts: counts,
    explain: opts.return_explain_metadata === true,
    scoring: typeof opts.scoring_strategy === 'string' ? opts.scoring_strategy : 'combined',
    group_by: opts.group_by as Record<string, unknown> | undefined,
    group_by_return_type: opts.group_by_return_type === 'groups' ? 'groups' : 'representatives',
  };
}

/** The return type each grouping needs, as the live service enforces it. */
function checkGroupBy(g: Record<string, unknown>, rt: ReturnType): void {
  const need: Record<string, ReturnType> = {
    matching_deposit_group_id: 'entry',
    sequence_identity: 'polymer_entity',
    matching_uniprot_accession: 'polymer_entity',
    matching_chemical_component_id: 'non_polymer_entity',
  };
  const kind = String(g.aggregation_method);
  const want = need[kind];
  if (want && want !== rt) throw badQuery(`group_by ${kind} requires return_type ${want}, not ${rt}`);
}
