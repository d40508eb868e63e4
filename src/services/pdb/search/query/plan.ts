/**
 * A query whose terminals are all attribute (`text`, `text_chem`) or `full_text` terminals,
 * compiled to one SQL statement of rows `(id, score)` on the return type, each hit once, scored
 * as the engine scores (see engine.ts): a terminal's score normalised by its best, summed over
 * the terminals a hit matched. `and` joins its parts on the identifier, `or` unites them and sums.
 * The database then counts, ranks and pages it, so no request holds every hit in memory.
 */
import type { Catalogue } from '../attributes.js';
import type { SearchScope } from './engine.js';
import { badQuery } from '../../errors.js';
import { fullTextSql, fullTextWords, type RankedRead } from './fulltext.js';
import type { SearchTables } from '../build/indexer.js';
import type { FilterNode, Group, Node, ReturnType, Service, Terminal } from './request.js';
import { RETURN_KIND, mapSql, throughEntry } from './returns.js';
import { joinInOrder, joinSql, sql, sqlNumber, sqlText, testedColumn, type Sql } from '../../../../core/store/sql.js';
import { attributeCondition, condition, conditionSql, readsWords, sameRecordSql, type AttributeCondition } from './text.js';
import { isUniprotAttribute } from './uniprot.js';
import { kindsOf } from './values.js';

/**
 * Rows `(id, score)`, or rows `id` alone when every hit scores `constant`. Undefined plans have no
 * hits. `direct` when the rows are one read of an index: the database then counts them there and
 * reads a page in identifier order without the rest, given the parts to write one flat statement
 * (it would sort every hit of a wrapped one).
 */
export interface Plan {
  sql: Sql;
  constant: number | undefined;
  direct?: DirectRead;
  /** The rows already in rank order from an index, and counted without reading them. */
  ranked?: RankedRead;
  /**
   * Rows `id` of entries such that the hits are every object of the return type in them (an entry
   * condition asked for assemblies, say): an and-group then tests an entry rather than mapping
   * every hit of this part to the return type first.
   */
  entries?: Sql;
}

/** `SELECT [DISTINCT] <id> FROM <from> WHERE <where>`. */
export interface DirectRead {
  distinct: boolean;
  id: string;
  from: string;
  where: Sql;
}

const directSql = (d: DirectRead): Sql => sql`SELECT ${sqlText(d.distinct ? 'DISTINCT ' : '')}${sqlText(d.id)} AS id FROM ${sqlText(d.from)} WHERE ${d.where}`;

/** An attribute condition's hits: rows `id`, and how to read them directly when one index holds them. */
export interface AttributeHits {
  sql: Sql;
  direct?: DirectRead;
  entries?: Sql;
}

/** A terminal as planned: its own rows (`id`, and `score` when ranked), for verbose results. */
export interface PlannedTerminal {
  terminal: Terminal;
  sql: Sql;
  /** Scores vary (normalised by the terminal's best); otherwise every hit scores 1. */
  ranked: boolean;
}

const SQL_SERVICES: ReadonlySet<Service> = new Set(['text', 'text_chem', 'full_text']);

/** Whether every terminal of the query is answered from the SQL indexes. */
export function inSql(node: Node): boolean {
  return node.type === 'terminal' ? SQL_SERVICES.has(node.service) : node.nodes.every(inSql);
}

export const catalogueOf = (service: Service): Catalogue => (service === 'text_chem' ? 'chemical' : 'structure');
/** The index holding an attribute's values: the UniProt ones are SIFTS' (uniprot.ts). */
const indexOf = (s: SearchScope, service: Service, path: string) => (service === 'text_chem' ? s.ccd : isUniprotAttribute(path) ? s.uniprot : s.archive);

/** Attribute terminals of one `and` group that must match the same nested record. */
export function sameRecordGroup(g: Group): AttributeCondition[] | undefined {
  if (g.logical_operator !== 'and' || g.nodes.length < 2) return undefined;
  const conds: AttributeCondition[] = [];
  let nested: string | undefined;
  let service: Service | undefined;
  for (const n of g.nodes) {
    if (n.type !== 'terminal' || (n.service !== 'text' && n.service !== 'text_chem')) return undefined;
    const c = attributeCondition(catalogueOf(n.service), n.parameters, n.service);
    if (!c.attribute.nested || c.negation) return undefined;
    if (nested !== undefined && (c.attribute.nested !== nested || n.service !== service)) return undefined;
    nested = c.attribute.nested;
    service = n.service;
    conds.push(c);
  }
  return conds;
}

/**
 * Rows `id`: the return type's objects matching the conditions (one, or several on one nested
 * record), or undefined when none can.
 */
export async function attributeSql(s: SearchScope, service: Service, list: AttributeCondition[], rt: ReturnType): Promise<AttributeHits | undefined> {
  const first = list[0] as AttributeCondition;
  const index = indexOf(s, service, first.attribute.path);
  if (!index) return undefined;
  const info = await kindsOf(s.db, index, first.attribute.path);
  const target = RETURN_KIND[rt];
  const negate = list.length === 1 && first.negation;
  const [only] = info.kinds;
  // One kind, on the return type or mapped to entries: read from the value index alone.
  if (!negate && list.length === 1 && info.kinds.length === 1 && only !== undefined && (only === target || (target === 'entry' && only !== 'mol_definition'))) {
    const c = condition(first, index);
    // An object matches once when it holds one value of the attribute.
    const once = only === target && !info.multi.has(only) && !readsWords(first);
    const col = target === 'entry' ? 'a.entry_id' : 'a.obj';
    const direct: DirectRead = { distinct: !once, id: col, from: c.from, where: sql`${{ sql: c.where, params: c.params }} AND a.kind = ${only}` };
    return { sql: directSql(direct), direct };
  }
  let hits: Sql = list.length === 1 ? conditionSql(first, index) : sameRecordSql(list, index);
  let kinds = info.kinds;
  if (negate) {
    // The objects of the attribute's kinds that do not match: the universe minus the hits.
    if (kinds.length === 0) kinds = [index === s.ccd ? 'mol_definition' : target];
    const h = hits;
    hits = joinSql(
      kinds.map(
        (k) =>
          sql`SELECT o.kind AS kind, o.id AS obj, 0 AS rec, o.entry_id AS entry_id FROM ${sqlText(index.sobj)} o WHERE o.kind = ${k} AND o.id NOT IN (SELECT m.obj FROM (${h}) m WHERE m.kind = ${k})`,
      ),
      ' UNION ALL ',
    );
  }
  const mapped = kinds.map((k) => mapSql(k, rt, hits, s.archive, s.db.dialect)).filter((x): x is Sql => x !== undefined);
  if (mapped.length === 0) return undefined;
  const mappedIds = sql`SELECT DISTINCT m.dst AS id FROM (${joinSql(mapped, ' UNION ')}) m WHERE m.dst IS NOT NULL`;
  if (!kinds.every((k) => throughEntry(k, rt))) return { sql: mappedIds };
  return {
    sql: mappedIds,
    entries: sql`SELECT h.entry_id AS id FROM (${hits}) h WHERE h.kind IN (${joinSql(
      kinds.map((k) => sql`${k}`),
      ', ',
    )})`,
  };
}

interface Context {
  s: SearchScope;
  rt: ReturnType;
  scoring: string;
  terminals: PlannedTerminal[];
}

const counts = (t: Terminal, scoring: string) => scoring === 'combined' || scoring === t.service;

/**
 * The query as one statement. `terminals` receives each terminal's own rows (for verbose results).
 * At the root a terminal's scores are left raw: the final division by the best hit's score
 * cancels the terminal's own normalisation.
 */
export async function planQuery(s: SearchScope, node: Node, rt: ReturnType, scoring: string, terminals: PlannedTerminal[]): Promise<Plan | undefined> {
  return planNode({ s, rt, scoring, terminals }, node, true);
}

async function planNode(c: Context, node: Node, root: boolean): Promise<Plan | undefined> {
  if (node.type === 'terminal') return planTerminal(c, node, root);
  const same = sameRecordGroup(node);
  if (same) {
    const terminals = node.nodes as Terminal[];
    const service = terminals[0]?.service ?? 'text';
    const hits = await attributeSql(c.s, service, same, c.rt);
    if (!hits) return undefined;
    for (const t of terminals) c.terminals.push({ terminal: t, sql: hits.sql, ranked: false });
    return { ...hits, constant: terminals.filter((t) => counts(t, c.scoring)).length };
  }
  const parts: Plan[] = [];
  for (const n of node.nodes) {
    const p = await planNode(c, n, false);
    if (p) parts.push(p);
    else if (node.logical_operator === 'and') return undefined;
  }
  const [first] = parts;
  if (!first) return undefined;
  if (parts.length === 1) return first;
  return node.logical_operator === 'and' ? both(c, parts) : either(parts);
}

/**
 * `and`: the hits of every part, scores summed. Parts that stand for every object of their
 * entries are tested on the entry (see Plan.entries): an entry condition asked for assemblies
 * costs a look-up per hit of the other parts, not a mapping of each of its own hits.
 */
function both(c: Context, parts: Plan[]): Plan {
  const n = c.s.archive;
  const byEntry = n ? parts.filter((p) => p.constant !== undefined && p.entries) : [];
  const rest = parts.filter((p) => !byEntry.includes(p));
  if (!n || byEntry.length === 0 || (rest.length === 0 && byEntry.length === 1)) return joined(c, parts);
  const target = RETURN_KIND[c.rt];
  const constant = byEntry.reduce((a, p) => a + (p.constant as number), 0);
  // The hits first, then their objects: when the count is known, the page is asked alone, and
  // SQLite, free to choose, read every object of the kind in identifier order to skip the sort,
  // testing each against the hits (seconds for an archive's assemblies).
  const join = joinInOrder(c.s.db.dialect);
  if (rest.length === 0) {
    // The entries of every part, then their objects of the return type.
    const [first, ...more] = byEntry.map((p) => p.entries as Sql);
    const where = more.length
      ? sql` WHERE ${joinSql(
          more.map((e) => sql`e0.id IN (${e})`),
          ' AND ',
        )}`
      : sqlText('');
    return {
      sql: sql`SELECT r.id AS id FROM (SELECT DISTINCT e0.id AS id FROM (${first as Sql}) e0${where}) e ${sqlText(join)} ${sqlText(n.sobj)} r ON r.kind = ${target} AND r.entry_id = e.id`,
      constant,
    };
  }
  const lead = rest.length === 1 ? (rest[0] as Plan) : joined(c, rest);
  // An entry list is a test of each hit (read as a key, it was read whole for each hit: 20 s for an
  // entity phrase within the NMR entries of 50,000).
  const entryTests = (col: string) => {
    const entry = sqlText(testedColumn(c.s.db.dialect, col));
    return joinSql(
      byEntry.map((p) => sql`${entry} IN (${p.entries as Sql})`),
      ' AND ',
    );
  };
  const d = rest.length === 1 ? lead.direct : undefined;
  if (d && d.id === 'a.obj' && lead.constant !== undefined) {
    // The other part's hits are one read of a value index whose rows are objects of the return
    // type with their entry: the entries are tested on those rows, and the read stays direct.
    const direct: DirectRead = { ...d, where: sql`${d.where} AND ${entryTests('a.entry_id')}` };
    return { sql: directSql(direct), direct, constant: lead.constant + constant };
  }
  // Otherwise each hit's object is found by its identifier and its entry tested.
  const tests = entryTests('o.entry_id');
  const from = sql`FROM (${lead.sql}) p ${sqlText(join)} ${sqlText(n.sobj)} o ON o.kind = ${target} AND o.id = p.id WHERE ${tests}`;
  if (lead.constant !== undefined) return { sql: sql`SELECT p.id AS id ${from}`, constant: lead.constant + constant };
  return { sql: sql`SELECT p.id AS id, p.score${constant !== 0 ? sql` + ${sqlNumber(constant)}` : sqlText('')} AS score ${from}`, constant: undefined };
}

/** `and` of parts on the return type: ranked parts joined on the identifier, parts of one score tested by membership. */
function joined(c: Context, parts: Plan[]): Plan {
  const ranked = parts.filter((p) => p.constant === undefined);
  const flat = parts.filter((p) => p.constant !== undefined);
  const constant = flat.reduce((a, p) => a + (p.constant as number), 0);
  const lead = (ranked[0] ?? flat[0]) as Plan;
  const others = ranked.length ? flat : flat.slice(1);
  let from = sql`(${lead.sql}) p0`;
  let score = sqlText('p0.score');
  ranked.slice(1).forEach((p, i) => {
    const a = sqlText(`p${i + 1}`);
    from = sql`${from} JOIN (${p.sql}) ${a} ON ${a}.id = p0.id`;
    score = sql`${score} + ${a}.score`;
  });
  if (constant !== 0) score = sql`${score} + ${sqlNumber(constant)}`;
  // Membership tested on each row of the lead: SQLite moves the test into the lead's statement,
  // where it read the member list as a key of the lead's own object look-up, the whole list for
  // each of its rows (minutes for two entity conditions asked for chains).
  const id = sqlText(testedColumn(c.s.db.dialect, 'p0.id'));
  const where = others.length
    ? sql` WHERE ${joinSql(
        others.map((p) => sql`${id} IN (${membersSql(p)})`),
        ' AND ',
      )}`
    : sqlText('');
  if (!ranked.length) return { sql: sql`SELECT p0.id AS id FROM ${from}${where}`, constant };
  return { sql: sql`SELECT p0.id AS id, ${score} AS score FROM ${from}${where}`, constant: undefined };
}

/**
 * A part's hits as tested by membership (`IN`): an index read without its DISTINCT, which a
 * membership test does not need and which costs the database a pass over every hit.
 */
const membersSql = (p: Plan): Sql => (p.direct ? sql`SELECT ${sqlText(p.direct.id)} FROM ${sqlText(p.direct.from)} WHERE ${p.direct.where}` : sql`SELECT x.id FROM (${p.sql}) x`);

/** `or`: the hits of any part, each scoring the sum of the parts it is in. */
function either(parts: Plan[]): Plan {
  const all = joinSql(
    parts.map((p) => sql`SELECT x.id AS id, ${p.constant === undefined ? sqlText('x.score') : sqlNumber(p.constant)} AS score FROM (${p.sql}) x`),
    ' UNION ALL ',
  );
  if (parts.every((p) => p.constant === 0)) return { sql: sql`SELECT DISTINCT u.id AS id FROM (${all}) u`, constant: 0 };
  return { sql: sql`SELECT u.id AS id, SUM(u.score) AS score FROM (${all}) u GROUP BY u.id`, constant: undefined };
}

async function planTerminal(c: Context, t: Terminal, root: boolean): Promise<Plan | undefined> {
  const w = counts(t, c.scoring) ? 1 : 0;
  if (t.service === 'text' || t.service === 'text_chem') {
    const cond = attributeCondition(catalogueOf(t.service), t.parameters, t.service);
    const hits = await attributeSql(c.s, t.service, [cond], c.rt);
    if (!hits) return undefined;
    c.terminals.push({ terminal: t, sql: hits.sql, ranked: false });
    return { ...hits, constant: w };
  }
  if (t.service !== 'full_text') throw badQuery(`The ${t.service} service is not answered from the attribute indexes`);
  const found = await fullTextSql(c.s, fullTextWords(t.parameters.value), c.rt);
  if (!found) return undefined;
  const { ranked, ...words } = found;
  c.terminals.push({ terminal: t, sql: words, ranked: true });
  if (w === 0) return { sql: sql`SELECT x.id AS id FROM (${words}) x`, constant: 0 };
  if (root) return ranked ? { sql: words, constant: undefined, ranked } : { sql: words, constant: undefined };
  return { sql: sql`SELECT x.id AS id, x.score / MAX(x.score) OVER () AS score FROM (${words}) x`, constant: undefined };
}

/** Every object of the return type (a request without a query), each scoring 1. */
export function everything(rt: ReturnType, n: SearchTables | undefined): Plan | undefined {
  if (!n) return undefined;
  const target = RETURN_KIND[rt];
  // Chemical components are listed per entry.
  const direct: DirectRead = { distinct: target === 'mol_definition', id: 'o.id', from: `${n.sobj} o`, where: sql`o.kind = ${target === 'mol_definition' ? 'comp' : target}` };
  return { sql: directSql(direct), constant: 1, direct };
}

/** A filter node (facets, sort) as rows `id` of the return type, or undefined when nothing matches. */
export async function filterSql(s: SearchScope, f: FilterNode, rt: ReturnType): Promise<Sql | undefined> {
  const toNode = (x: FilterNode, ids: { n: number }): Node =>
    x.type === 'group'
      ? { type: 'group', logical_operator: x.logical_operator, nodes: x.nodes.map((y) => toNode(y, ids)) }
      : { type: 'terminal', service: 'text', node_id: ids.n++, parameters: x.parameters };
  const plan = await planQuery(s, toNode(f, { n: 0 }), rt, 'combined', []);
  return plan && sql`SELECT f.id AS id FROM (${plan.sql}) f`;
}
