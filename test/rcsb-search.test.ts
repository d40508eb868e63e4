import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { rcsbSearch } from '../src/services/pdb/search/index.js';
import { forgetTableShapes } from '../src/services/pdb/search/build/indexer.js';
import { ARCHIVE_PREFIX } from '../src/services/pdb/store/tables.js';
import { tableSet } from '../src/core/ingest/dataset.js';
import { motifBudget } from '../src/services/pdb/search/query/seqmotif.js';
import type { TestApp } from './helpers/app.js';
import { DEMO_DIR, globinVariant as variant, loadArchive, loadDemo, pdbApp, writeFile, postJson, searchIds, type Json } from './helpers/pdb.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { missing } from './helpers/tools.js';

const SEARCH = '/rcsb/search/rcsbsearch/v2';
const Q = `${SEARCH}/query`;

const text = (attribute: string, operator: string, value?: unknown, extra: Json = {}) => ({
  type: 'terminal',
  service: 'text',
  parameters: { attribute, operator, ...(value === undefined ? {} : { value }), ...extra },
});
const all = { return_all_hits: true, results_verbosity: 'compact' };

describe.each(STORES.map((s) => [s.name, s] as const))('RCSB Search API on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const post = (body: unknown) => postJson(t.app, Q, body);
  /** Identifiers a query returns (all of them, compact), [] for 204. */
  const ids = (query: unknown, return_type = 'entry', options: Json = {}) => searchIds(t.app, query, return_type, options);

  beforeAll(async () => {
    store = await target.open();
    t = await pdbApp(store, [rcsbData, rcsbSearch]);
    await loadDemo(store, t.generations);
    // The real 4HHB and two generated variants of it (the other demo entries are searched below).
    const dir = tempDir();
    writeFile(dir, 'hh/4hhb.cif.gz', readFileSync(join(DEMO_DIR, 'archive/hh/4hhb.cif.gz')));
    writeFile(dir, 'hb/9hb1.cif.gz', variant('9HB1', { title: 'SYNTHETIC GLOBIN VARIANT FOR SEARCH TESTS', method: 'SOLUTION NMR', resolution: '2.80', released: '2001-05-01' }));
    writeFile(dir, 'hb/9hb2.cif.gz', variant('9HB2', { title: 'ANOTHER GLOBIN MODEL BY CRYO ELECTRON MICROSCOPY', method: 'ELECTRON MICROSCOPY', resolution: '3.50', released: '2005-02-01' }));
    await loadArchive(store, t.generations, dir, { source: 'test' });
    // The loads build the engine indexes (MMseqs2 databases and clusters, coordinate indexes).
  }, 600_000);
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  describe('attribute queries', () => {
    it('matches exact values, case-insensitively unless asked, and lists with in', async () => {
      expect(await ids(text('exptl.method', 'exact_match', 'X-RAY DIFFRACTION'))).toEqual(['4HHB']);
      expect(await ids(text('exptl.method', 'exact_match', 'x-ray diffraction'))).toEqual(['4HHB']);
      expect(await ids(text('exptl.method', 'exact_match', 'x-ray diffraction', { case_sensitive: true }))).toEqual([]);
      expect(await ids(text('exptl.method', 'exact_match', 'X-RAY DIFFRACTION', { case_sensitive: true }))).toEqual(['4HHB']);
      expect(await ids(text('exptl.method', 'in', ['solution nmr', 'ELECTRON MICROSCOPY'], { case_sensitive: true }))).toEqual(['9HB2']);
      expect(await ids(text('exptl.method', 'in', ['SOLUTION NMR', 'ELECTRON MICROSCOPY']))).toEqual(['9HB1', '9HB2']);
      expect(await ids(text('rcsb_entry_container_identifiers.entry_id', 'in', ['4HHB', '9HB2']))).toEqual(['4HHB', '9HB2']);
    });

    it('compares numbers with equals, greater, less, range and in', async () => {
      const res = 'rcsb_entry_info.resolution_combined';
      expect(await ids(text(res, 'equals', 1.74))).toEqual(['4HHB']);
      expect(await ids(text(res, 'greater', 2.8))).toEqual(['9HB2']);
      expect(await ids(text(res, 'greater_or_equal', 2.8))).toEqual(['9HB1', '9HB2']);
      expect(await ids(text(res, 'less', 2.8))).toEqual(['4HHB']);
      expect(await ids(text(res, 'less_or_equal', 2.8))).toEqual(['4HHB', '9HB1']);
      expect(await ids(text(res, 'range', { from: 1.74, to: 3.5 }))).toEqual(['9HB1']);
      expect(await ids(text(res, 'range', { from: 1.74, to: 3.5, include_lower: true, include_upper: true }))).toEqual(['4HHB', '9HB1', '9HB2']);
      expect(await ids(text(res, 'in', [1.74, 3.5]))).toEqual(['4HHB', '9HB2']);
    });

    it('compares dates, whole days for bare dates, and date math', async () => {
      const rel = 'rcsb_accession_info.initial_release_date';
      expect(await ids(text(rel, 'equals', '1984-07-17'))).toEqual(['4HHB']);
      expect(await ids(text(rel, 'greater', '2001-05-01'))).toEqual(['9HB2']);
      expect(await ids(text(rel, 'greater_or_equal', '2001-05-01'))).toEqual(['9HB1', '9HB2']);
      expect(await ids(text(rel, 'less', '2001-05-01T00:00:00Z'))).toEqual(['4HHB']);
      expect(await ids(text(rel, 'range', { from: '2000-01-01', to: '2003-01-01' }))).toEqual(['9HB1']);
      expect(await ids(text(rel, 'greater', '2001-05-01||+1y'))).toEqual(['9HB2']);
      expect(await ids(text(rel, 'less', 'now-1w'))).toEqual(['4HHB', '9HB1', '9HB2']);
    });

    it('finds phrases in tables an earlier version built, which hold single words only', async () => {
      const gen = (await t.generations.served('rcsb-data')).find((l) => l.dataset === 'archive')?.id as number;
      const stok = tableSet(ARCHIVE_PREFIX, gen).name('stok');
      const indexes =
        store.db.dialect === 'sqlite'
          ? await store.db.query<{ name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql LIKE '%rest%'", [stok])
          : [];
      const pgIndexes =
        store.db.dialect === 'sqlite'
          ? []
          : await store.db.query<{ name: string; sql: string }>(
              "SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ? AND indexdef LIKE '%rest%'",
              [stok],
            );
      for (const ix of [...indexes, ...pgIndexes]) await store.db.exec(`DROP INDEX "${ix.name}"`);
      await store.db.exec(`ALTER TABLE "${stok}" RENAME COLUMN rest TO rest_kept`);
      forgetTableShapes();
      try {
        expect(await ids(text('struct.title', 'contains_phrase', 'globin variant'))).toEqual(['9HB1']);
        expect(await ids(text('struct.title', 'contains_phrase', 'variant globin'))).toEqual([]);
        expect(await ids(text('struct.title', 'contains_phrase', 'synthetic globin variant for search tests'))).toEqual(['9HB1']);
        expect(await ids(text('struct.title', 'contains_words', 'microscopy'))).toEqual(['9HB2']);
      } finally {
        await store.db.exec(`ALTER TABLE "${stok}" RENAME COLUMN rest_kept TO rest`);
        for (const ix of [...indexes, ...pgIndexes]) await store.db.exec(ix.sql);
        forgetTableShapes();
      }
    });

    it('answers from tables an earlier version built, which hold attribute paths rather than numbers', async () => {
      const gen = (await t.generations.served('rcsb-data')).find((l) => l.dataset === 'archive')?.id as number;
      const ts = tableSet(ARCHIVE_PREFIX, gen);
      const sattrs = ts.name('sattrs');
      const tables = [ts.name('sattr'), ts.name('stok')];
      for (const tab of tables) {
        await store.db.exec(`ALTER TABLE "${tab}" RENAME COLUMN attr TO attr_number`);
        await store.db.exec(`ALTER TABLE "${tab}" ADD COLUMN attr TEXT`);
        await store.db.exec(`UPDATE "${tab}" SET attr = (SELECT s.attr FROM "${sattrs}" s WHERE s.aid = "${tab}".attr_number LIMIT 1)`);
      }
      await store.db.exec(`ALTER TABLE "${sattrs}" RENAME COLUMN aid TO aid_kept`);
      forgetTableShapes();
      try {
        expect(await ids(text('exptl.method', 'exact_match', 'solution nmr'))).toEqual(['9HB1']);
        expect(await ids(text('exptl.method', 'in', ['SOLUTION NMR', 'x-ray diffraction'], { case_sensitive: true }))).toEqual(['9HB1']);
        expect(await ids(text('rcsb_entry_info.resolution_combined', 'range', { from: 2.7, to: 3.6 }))).toEqual(['9HB1', '9HB2']);
        expect(await ids(text('struct.title', 'contains_phrase', 'cryo electron'))).toEqual(['9HB2']);
      } finally {
        for (const tab of tables) {
          await store.db.exec(`ALTER TABLE "${tab}" DROP COLUMN attr`);
          await store.db.exec(`ALTER TABLE "${tab}" RENAME COLUMN attr_number TO attr`);
        }
        await store.db.exec(`ALTER TABLE "${sattrs}" RENAME COLUMN aid_kept TO aid`);
        forgetTableShapes();
      }
    });

    it('finds words and phrases in full-text attributes', async () => {
      expect(await ids(text('struct.title', 'contains_words', 'deoxyhaemoglobin microscopy'))).toEqual(['4HHB', '9HB2']);
      expect(await ids(text('struct.title', 'contains_phrase', 'globin variant'))).toEqual(['9HB1']);
      expect(await ids(text('struct.title', 'contains_phrase', 'variant globin'))).toEqual([]);
      // Whole words only, at the end of a value too, and phrases longer than one index key.
      expect(await ids(text('struct.title', 'contains_phrase', 'globin var'))).toEqual([]);
      expect(await ids(text('struct.title', 'contains_phrase', 'Electron Microscopy'))).toEqual(['9HB2']);
      expect(await ids(text('struct.title', 'contains_phrase', 'synthetic globin variant for search tests'))).toEqual(['9HB1']);
      expect(await ids(text('struct.title', 'contains_phrase', 'model by cryo electron microscopy'))).toEqual(['9HB2']);
      expect(await ids(text('struct.title', 'contains_phrase', 'globin variant for search test'))).toEqual([]);
      expect(await ids(text('struct.title', 'contains_phrase', 'another globin model by cryo microscopy'))).toEqual([]);
    });

    it('answers exists, negation and the entry-level attributes on every return type', async () => {
      expect(await ids(text('rcsb_entry_info.resolution_combined', 'exists'))).toHaveLength(3);
      expect(await ids(text('exptl.method', 'exact_match', 'X-RAY DIFFRACTION', { negation: true }))).toEqual(['9HB1', '9HB2']);
      const xray = text('exptl.method', 'exact_match', 'X-RAY DIFFRACTION');
      expect(await ids(xray, 'polymer_entity')).toEqual(['4HHB_1', '4HHB_2']);
      expect(await ids(xray, 'polymer_instance')).toEqual(['4HHB.A', '4HHB.B', '4HHB.C', '4HHB.D']);
      expect(await ids(xray, 'assembly')).toEqual(['4HHB-1']);
      expect(await ids(xray, 'non_polymer_entity')).toEqual(['4HHB_3', '4HHB_4']);
      expect(await ids(xray, 'mol_definition')).toEqual(expect.arrayContaining(['HEM', 'PO4']));
    });

    it('maps entity and chain hits up and down, and chemical attributes through the components', async () => {
      const alpha = text('rcsb_polymer_entity.pdbx_description', 'contains_words', 'alpha');
      expect(await ids(alpha, 'polymer_entity')).toEqual(['4HHB_1', '9HB1_1', '9HB2_1']);
      expect(await ids(alpha, 'polymer_instance')).toEqual(['4HHB.A', '4HHB.C', '9HB1.A', '9HB1.C', '9HB2.A', '9HB2.C']);
      expect(await ids(alpha, 'entry')).toEqual(['4HHB', '9HB1', '9HB2']);
      const heavy = { type: 'terminal', service: 'text_chem', parameters: { attribute: 'chem_comp.formula_weight', operator: 'greater', value: 500 } };
      expect(await ids(heavy, 'mol_definition')).toEqual(['HEM']);
      expect(await ids(heavy, 'non_polymer_entity')).toEqual(['4HHB_3', '9HB1_3', '9HB2_3']);
      expect(await ids(heavy, 'entry')).toEqual(['4HHB', '9HB1', '9HB2']);
    });

    it('combines with and/or groups, nested', async () => {
      const q = {
        type: 'group',
        logical_operator: 'and',
        nodes: [
          text('struct.title', 'contains_words', 'globin'),
          { type: 'group', logical_operator: 'or', nodes: [text('exptl.method', 'exact_match', 'SOLUTION NMR'), text('rcsb_entry_info.resolution_combined', 'less', 2)] },
        ],
      };
      expect(await ids(q)).toEqual(['9HB1']);
      const either = { type: 'group', logical_operator: 'or', nodes: [text('exptl.method', 'exact_match', 'SOLUTION NMR'), text('rcsb_entry_info.resolution_combined', 'less', 2)] };
      expect(await ids(either)).toEqual(['4HHB', '9HB1']);
    });

    it('holds conditions on one nested record when they share a group, and separately otherwise', async () => {
      // 4HHB cites Nature in 1982 and J.Mol.Biol. in other years: no single citation is both.
      const year = text('citation.year', 'equals', 1982);
      const journal = text('citation.journal_abbrev', 'exact_match', 'J.Mol.Biol.');
      expect(await ids({ type: 'group', logical_operator: 'and', nodes: [year, journal] })).toEqual([]);
      const apart = {
        type: 'group',
        logical_operator: 'and',
        nodes: [
          { type: 'group', logical_operator: 'and', nodes: [year] },
          { type: 'group', logical_operator: 'and', nodes: [journal] },
        ],
      };
      expect(await ids(apart)).toEqual(['4HHB', '9HB1', '9HB2']);
      const same = text('citation.year', 'equals', 1984);
      expect(await ids({ type: 'group', logical_operator: 'and', nodes: [same, journal] })).toEqual(['4HHB', '9HB1', '9HB2']);
    });

    it('refuses operators an attribute does not take, and unknown attributes, with a 400 naming them', async () => {
      let r = await post({ query: text('struct.title', 'greater', 3), return_type: 'entry' });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ status: 400 });
      expect(r.body.message).toMatch(/greater.*struct\.title/);
      r = await post({ query: text('no_such.attribute', 'exact_match', 'x'), return_type: 'entry' });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/no_such\.attribute/);
      r = await post({ query: text('rcsb_entry_info.resolution_combined', 'equals', 'high'), return_type: 'entry' });
      expect(r.status).toBe(400);
      r = await post({ query: text('rcsb_accession_info.initial_release_date', 'greater', 'yesterday'), return_type: 'entry' });
      expect(r.status).toBe(400);
    });

    it('takes long in lists up to a bound over the whole request, and answers a 400 past it', async () => {
      const many = (n: number, last: string) => [...Array.from({ length: n - 1 }, (_, i) => `NO-SUCH-${i}`), last];
      const methods = (n: number, last: string, extra: Json = {}) => text('exptl.method', 'in', many(n, last), extra);
      expect(await ids(methods(10_000, 'solution nmr'))).toEqual(['9HB1']);
      expect(await ids(methods(5_000, 'SOLUTION NMR', { case_sensitive: true }))).toEqual(['9HB1']);
      // Lists that once made statements past the database's bound on parameters (a 500).
      for (const query of [
        { type: 'group', logical_operator: 'or', nodes: [methods(9_000, 'SOLUTION NMR', { case_sensitive: true }), methods(9_000, 'X-RAY DIFFRACTION', { case_sensitive: true })] },
        { type: 'group', logical_operator: 'or', nodes: [1, 2, 3, 4].map(() => methods(9_000, 'x-ray diffraction')) },
      ]) {
        const r = await post({ query, return_type: 'entry' });
        expect(r.status, r.raw).toBe(400);
        expect(r.body.message).toMatch(/in conditions hold \d+ values .*at most 10000/);
      }
      // Filters of facets count too.
      const faceted = (n: number) => ({
        query: methods(6_000, 'x-ray diffraction'),
        return_type: 'entry',
        request_options: { facets: [{ filter: methods(n, 'x-ray diffraction'), facets: [{ name: 'f', aggregation_type: 'terms', attribute: 'exptl.method' }] }] },
      });
      expect((await post(faceted(100))).status).toBe(200);
      const r = await post(faceted(6_000));
      expect(r.status, r.raw).toBe(400);
      expect(r.body.message).toMatch(/hold 12000 values/);
    });
  });

  describe('full_text', () => {
    it('needs every word somewhere in the entry and ranks by relevance', async () => {
      // 4HHB cites a paper on "the Globin" too.
      expect((await ids({ type: 'terminal', service: 'full_text', parameters: { value: 'globin' } })).sort()).toEqual(['4HHB', '9HB1', '9HB2']);
      expect(await ids({ type: 'terminal', service: 'full_text', parameters: { value: 'synthetic' } })).toEqual(['9HB1']);
      expect(await ids({ type: 'terminal', service: 'full_text', parameters: { value: 'globin microscopy' } })).toEqual(['9HB2']);
      const r = await post({ query: { type: 'terminal', service: 'full_text', parameters: { value: 'hemoglobin' } }, return_type: 'polymer_entity' });
      expect(r.status).toBe(200);
      expect(r.body.result_set[0].score).toBe(1);
      for (const h of r.body.result_set) expect(h.score).toBeGreaterThan(0);
    });
  });

  describe('request options and the response', () => {
    const every = text('rcsb_entry_info.resolution_combined', 'exists');

    it('answers no hits with 204 and an empty body', async () => {
      const r = await post({ query: text('exptl.method', 'exact_match', 'NEUTRON DIFFRACTION'), return_type: 'entry' });
      expect(r.status).toBe(204);
      expect(r.raw).toBe('');
    });

    it('paginates, with minimal items by default and the query id echoed', async () => {
      const r = await post({
        query: every,
        return_type: 'entry',
        request_options: { paginate: { start: 1, rows: 1 }, sort: [{ sort_by: 'rcsb_entry_info.resolution_combined', direction: 'asc' }] },
        request_info: { query_id: 'abc123' },
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ query_id: 'abc123', result_type: 'entry', total_count: 3, result_set: [{ identifier: '9HB1', score: 1 }] });
      const d = await post({ query: every, return_type: 'entry' });
      expect(d.body.query_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(d.body.result_set).toHaveLength(3);
    });

    it('sorts by attribute both ways, and by score', async () => {
      const res = 'rcsb_accession_info.initial_release_date';
      expect(await ids(every, 'entry', { sort: [{ sort_by: res, direction: 'desc' }] })).toEqual(['9HB2', '9HB1', '4HHB']);
      expect(await ids(every, 'entry', { sort: [{ sort_by: res, direction: 'asc' }] })).toEqual(['4HHB', '9HB1', '9HB2']);
      const q = { type: 'group', logical_operator: 'or', nodes: [text('struct.title', 'contains_words', 'globin'), text('exptl.method', 'exact_match', 'SOLUTION NMR')] };
      const r = await post({ query: q, return_type: 'entry', request_options: { sort: [{ sort_by: 'score' }] } });
      expect(r.body.result_set).toEqual([
        { identifier: '9HB1', score: 1 },
        { identifier: '9HB2', score: 0.5 },
      ]);
    });

    it('returns counts only, or every hit, and refuses both together', async () => {
      let r = await post({ query: every, return_type: 'polymer_instance', request_options: { return_counts: true } });
      expect(r.body).toEqual({ query_id: expect.any(String), result_type: 'polymer_instance', total_count: 12 });
      r = await post({ query: every, return_type: 'polymer_instance', request_options: { return_all_hits: true } });
      expect(r.body.result_set).toHaveLength(12);
      r = await post({ query: every, return_type: 'entry', request_options: { return_all_hits: true, paginate: { start: 0, rows: 1 } } });
      expect(r.status).toBe(400);
    });

    it('explains in verbose mode which terminal nodes matched, and times them on request', async () => {
      const q = { type: 'group', logical_operator: 'and', nodes: [{ ...text('struct.title', 'contains_words', 'globin'), node_id: 7 }, text('exptl.method', 'exists')] };
      const r = await post({ query: q, return_type: 'entry', request_options: { results_verbosity: 'verbose', return_explain_metadata: true } });
      expect(r.status).toBe(200);
      const hit = r.body.result_set[0];
      expect(hit.services).toEqual([{ service_type: 'text', nodes: expect.arrayContaining([expect.objectContaining({ node_id: 7, norm_score: 1 })]) }]);
      expect(r.body.explain_metadata).toMatchObject({ total_timing: expect.any(Number), terminal_node_timings: { '7': expect.any(Number) } });
    });

    it('computes terms, histogram, date_histogram, range, date_range, cardinality and filter facets over all hits', async () => {
      const r = await post({
        query: every,
        return_type: 'entry',
        request_options: {
          paginate: { start: 0, rows: 1 },
          facets: [
            { name: 'methods', aggregation_type: 'terms', attribute: 'exptl.method' },
            { name: 'res', aggregation_type: 'histogram', attribute: 'rcsb_entry_info.resolution_combined', interval: 1 },
            { name: 'years', aggregation_type: 'date_histogram', attribute: 'rcsb_accession_info.initial_release_date', interval: 'year', min_interval_population: 1 },
            { name: 'bands', aggregation_type: 'range', attribute: 'rcsb_entry_info.resolution_combined', ranges: [{ to: 2 }, { from: 2, to: 3.5 }, { from: 3.5 }] },
            { name: 'eras', aggregation_type: 'date_range', attribute: 'rcsb_accession_info.initial_release_date', ranges: [{ to: '2000-01-01' }, { from: '2000-01-01' }] },
            { name: 'n', aggregation_type: 'cardinality', attribute: 'exptl.method' },
            {
              filter: text('rcsb_entry_info.resolution_combined', 'less', 3),
              facets: [{ name: 'good', aggregation_type: 'terms', attribute: 'exptl.method', facets: [{ name: 'inner', aggregation_type: 'cardinality', attribute: 'struct.title' }] }],
            },
          ],
        },
      });
      expect(r.status, r.raw).toBe(200);
      const f = Object.fromEntries((r.body.facets as Json[]).map((x) => [x.name, x]));
      expect(f.methods.buckets).toEqual([
        { label: 'ELECTRON MICROSCOPY', population: 1 },
        { label: 'SOLUTION NMR', population: 1 },
        { label: 'X-RAY DIFFRACTION', population: 1 },
      ]);
      expect(f.res.buckets).toEqual([
        { label: '1.0', population: 1 },
        { label: '2.0', population: 1 },
        { label: '3.0', population: 1 },
      ]);
      expect(f.years.buckets.map((b: Json) => b.label)).toEqual(['1984-01-01T00:00:00.000Z', '2001-01-01T00:00:00.000Z', '2005-01-01T00:00:00.000Z']);
      expect(f.bands.buckets.map((b: Json) => b.population)).toEqual([1, 1, 1]);
      expect(f.eras.buckets.map((b: Json) => b.population)).toEqual([1, 2]);
      expect(f.n).toEqual({ name: 'n', value: 3 });
      expect(f.good.buckets).toEqual([
        { label: 'SOLUTION NMR', population: 1, facets: [{ name: 'inner', value: 1 }] },
        { label: 'X-RAY DIFFRACTION', population: 1, facets: [{ name: 'inner', value: 1 }] },
      ]);
    });

    it('groups polymer entities by identical sequence and entries by nothing they share', async () => {
      const r = await post({
        query: every,
        return_type: 'polymer_entity',
        request_options: { group_by: { aggregation_method: 'sequence_identity', similarity_cutoff: 100 }, group_by_return_type: 'groups' },
      });
      expect(r.status, r.raw).toBe(200);
      expect(r.body.group_by_count).toBe(2);
      expect(r.body.group_set.map((g: Json) => g.count)).toEqual([3, 3]);
      const rep = await post({ query: every, return_type: 'polymer_entity', request_options: { group_by: { aggregation_method: 'sequence_identity', similarity_cutoff: 100 } } });
      expect(rep.body.result_set).toHaveLength(2);
      const wrong = await post({ query: every, return_type: 'entry', request_options: { group_by: { aggregation_method: 'sequence_identity', similarity_cutoff: 100 } } });
      expect(wrong.status).toBe(400);
    });

    it('takes GET ?json= with the same answer', async () => {
      const body = { query: text('exptl.method', 'exact_match', 'SOLUTION NMR'), return_type: 'entry', request_info: { query_id: 'g' } };
      const r = await t.app.inject({ method: 'GET', url: `${Q}?json=${encodeURIComponent(JSON.stringify(body))}` });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual((await post(body)).body);
    });
  });

  describe('bad requests', () => {
    it('answers schema violations with a 400 naming the key or type', async () => {
      const cases: [unknown, RegExp][] = [
        [{ query: text('exptl.method', 'exists'), return_type: 'entry', color: 'red' }, /unknown key "color"/],
        [{ query: text('exptl.method', 'exists') }, /return_type is required/],
        [{ query: text('exptl.method', 'exists'), return_type: 'planet' }, /return_type.*planet/],
        [{ query: { type: 'terminal', service: 'text', parameters: { attribute: 'exptl.method', operator: 'exists', colour: 1 } }, return_type: 'entry' }, /unknown key "colour"/],
        [{ query: { type: 'terminal', service: 'magic', parameters: {} }, return_type: 'entry' }, /service.*magic/],
        [{ query: text('exptl.method', 'exists'), return_type: 'entry', request_options: { paginate: { start: 0, rows: 10001 } } }, /rows must be at most 10000/],
        [{ query: text('exptl.method', 'exists'), return_type: 'entry', request_options: { paginate: { start: '0' } } }, /start must be of type integer/],
        [{ query: { type: 'group', logical_operator: 'xor', nodes: [] }, return_type: 'entry' }, /logical_operator|nodes/],
      ];
      for (const [body, message] of cases) {
        const r = await post(body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.status).toBe(400);
        expect(r.body.message).toMatch(message);
      }
    });

    it('answers invalid JSON and a missing json parameter with 400 in its own body', async () => {
      let r = await t.app.inject({ method: 'POST', url: Q, payload: '{"query": ', headers: { 'content-type': 'application/json' } });
      expect(r.statusCode).toBe(400);
      expect(r.json().status).toBe(400);
      r = await t.app.inject({ method: 'GET', url: `${Q}?json=%7Bnope` });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toMatch(/not valid JSON/);
      r = await t.app.inject({ method: 'GET', url: Q });
      expect(r.statusCode).toBe(400);
    });

    it('answers unknown paths with the service 404', async () => {
      const r = await t.app.inject({ method: 'GET', url: `${SEARCH}/nothing` });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ status: 404, message: 'HTTP 404 Not Found' });
    });
  });

  describe('metadata schemas', () => {
    it('serves the structure and chemical attribute schemas with what can be searched here', async () => {
      const s = await t.app.inject({ method: 'GET', url: `${SEARCH}/metadata/schema` });
      expect(s.statusCode).toBe(200);
      const schema = s.json();
      expect(schema.properties.rcsb_entry_info.properties.resolution_combined).toMatchObject({ type: 'array', items: { type: 'number', rcsb_search_context: ['default-match'] } });
      expect(schema.properties.struct.properties.title.rcsb_search_context).toContain('full-text');
      // Attributes none of the loaded documents carry are left out.
      expect(schema.properties.drugbank_info).toBeUndefined();
      const c = await t.app.inject({ method: 'GET', url: `${SEARCH}/metadata/chemical/schema` });
      expect(c.statusCode).toBe(200);
      expect(c.json().properties.chem_comp.properties.formula_weight).toBeDefined();
    });
  });

  describe('seqmotif', () => {
    const motif = (value: string, pattern_type: string, sequence_type = 'protein') => ({ type: 'terminal', service: 'seqmotif', parameters: { value, pattern_type, sequence_type } });

    it('matches simple, PROSITE and regular-expression patterns with their positions', async () => {
      // Hemoglobin alpha starts VLSPADKTNVKAAW; beta starts VHLTPEEKSAVTAL.
      expect(await ids(motif('VLSPADK', 'simple'), 'polymer_entity')).toEqual(['4HHB_1', '9HB1_1', '9HB2_1']);
      expect(await ids(motif('VXSPXDK', 'simple'), 'polymer_entity')).toEqual(['4HHB_1', '9HB1_1', '9HB2_1']);
      expect(await ids(motif('<V-H-L-T-P-x(2)-K.', 'prosite'), 'polymer_entity')).toEqual(['4HHB_2', '9HB1_2', '9HB2_2']);
      expect(await ids(motif('V-[HL]-[LS]-[TP]-P', 'prosite'), 'polymer_entity')).toEqual(['4HHB_2', '9HB1_2', '9HB2_2']);
      expect(await ids(motif('^V[HL]{2}', 'regex'), 'entry')).toEqual(['4HHB', '9HB1', '9HB2']);
      const r = await post({ query: motif('VLSPADK', 'simple'), return_type: 'polymer_entity', request_options: { results_verbosity: 'verbose', paginate: { start: 0, rows: 1 } } });
      expect(r.body.result_set[0].services[0]).toMatchObject({ service_type: 'seqmotif', nodes: [{ match_context: [{ start: 1, end: 7 }] }] });
      expect(await ids(motif('VLSPADK', 'simple', 'dna'), 'polymer_entity')).toEqual([]);
    });

    it('refuses malformed patterns, and ends a catastrophic regular expression within its budget', async () => {
      for (const [value, type] of [
        ['C-x(4,2)-C', 'prosite'],
        ['C-?-C', 'prosite'],
        ['C1C', 'simple'],
        ['(', 'regex'],
        ['A', 'simple'],
      ]) {
        const r = await post({ query: motif(value as string, type as string), return_type: 'entry' });
        expect(r.status, value).toBe(400);
      }
      const saved = motifBudget.ms;
      motifBudget.ms = 300;
      try {
        const started = Date.now();
        const r = await post({ query: motif('^(([A-Z]+)+)+!$', 'regex'), return_type: 'entry' });
        expect(r.status).toBe(400);
        expect(r.body.message).toMatch(/time limit/);
        expect(Date.now() - started).toBeLessThan(5_000);
      } finally {
        motifBudget.ms = saved;
      }
      // The matcher is back for the next query.
      expect(await ids(motif('VLSPADK', 'simple'))).toEqual(['4HHB', '9HB1', '9HB2']);
    });
  });

  describe('chemical', () => {
    const chem = (parameters: Json) => ({ type: 'terminal', service: 'chemical', parameters });
    const ALANINE = 'C[C@H](N)C(O)=O';

    it('matches formulas exactly or as a subset of the elements', async () => {
      expect(await ids(chem({ type: 'formula', value: 'C34 H32 Fe N4 O4' }), 'mol_definition')).toEqual(['HEM']);
      expect(await ids(chem({ type: 'formula', value: 'C3H7NO2' }), 'mol_definition')).toEqual(['ALA']);
      expect(await ids(chem({ type: 'formula', value: 'Fe', match_subset: true }), 'mol_definition')).toEqual(['HEM']);
      expect(await ids(chem({ type: 'formula', value: 'Fe' }), 'mol_definition')).toEqual([]);
      expect(await ids(chem({ type: 'formula', value: 'C34 H32 Fe N4 O4' }), 'non_polymer_entity')).toEqual(['4HHB_3', '9HB1_3', '9HB2_3']);
    });

    it('matches SMILES by graph, fingerprint and substructure, and InChI through the dictionary', { timeout: 120_000 }, async () => {
      expect(await ids(chem({ type: 'descriptor', descriptor_type: 'SMILES', value: ALANINE, match_type: 'graph-exact' }), 'mol_definition')).toEqual(['ALA']);
      // The other enantiomer: the same graph without stereo.
      expect(await ids(chem({ type: 'descriptor', descriptor_type: 'SMILES', value: 'C[C@@H](N)C(O)=O', match_type: 'graph-exact' }), 'mol_definition')).toEqual([]);
      expect(await ids(chem({ type: 'descriptor', descriptor_type: 'SMILES', value: 'C[C@@H](N)C(O)=O', match_type: 'graph-relaxed' }), 'mol_definition')).toEqual(['ALA']);
      const sub = await ids(chem({ type: 'descriptor', descriptor_type: 'SMILES', value: 'NCC(O)=O', match_type: 'sub-struct-graph-relaxed' }), 'mol_definition');
      expect(sub).toEqual(expect.arrayContaining(['ALA', 'GLY', 'SER', 'LYS']));
      expect(sub).not.toContain('HEM');
      const r = await post({ query: chem({ type: 'descriptor', descriptor_type: 'SMILES', value: ALANINE, match_type: 'fingerprint-similarity' }), return_type: 'mol_definition' });
      expect(r.body.result_set[0]).toEqual({ identifier: 'ALA', score: 1 });
      for (const h of r.body.result_set) expect(h.score).toBeLessThanOrEqual(1);
      const inchi = 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1';
      expect(await ids(chem({ type: 'descriptor', descriptor_type: 'InChI', value: inchi, match_type: 'graph-exact' }), 'mol_definition')).toEqual(['ALA']);
    });

    it('refuses unreadable descriptors and formulas with a 400', async () => {
      for (const p of [
        { type: 'descriptor', descriptor_type: 'SMILES', value: 'C1CC(', match_type: 'graph-exact' },
        { type: 'descriptor', descriptor_type: 'InChI', value: 'InChI=1S/nothing', match_type: 'graph-exact' },
        { type: 'formula', value: 'c8h9' },
        { type: 'descriptor', descriptor_type: 'SMILES', value: 'C'.repeat(5000) },
      ]) {
        const r = await post({ query: chem(p), return_type: 'mol_definition' });
        expect(r.status, JSON.stringify(p).slice(0, 80)).toBe(400);
        expect(r.body.status).toBe(400);
      }
    });
  });

  describe(`structure${missing('TMalign', 'TM-align')}`, () => {
    const shape = (value: Json, extra: Json = {}) => ({ type: 'terminal', service: 'structure', parameters: { value, ...extra } });

    it.skipIf(missing('TMalign') !== '')('ranks chains by TM-score from an alignment, the query itself first, with tmscore in verbose mode', { timeout: 180_000 }, async () => {
      const r = await post({
        query: shape({ entry_id: '4HHB', asym_id: 'A' }, { ptmscore_cutoff: 0.5 }),
        return_type: 'polymer_instance',
        request_options: { results_verbosity: 'verbose', return_all_hits: true },
      });
      expect(r.status, r.raw).toBe(200);
      const hits = r.body.result_set as Json[];
      // Alpha chains are identical (TM-score 1); beta chains share the globin fold (~0.9).
      expect(
        hits
          .slice(0, 6)
          .map((h) => h.identifier)
          .sort(),
      ).toEqual(['4HHB.A', '4HHB.C', '9HB1.A', '9HB1.C', '9HB2.A', '9HB2.C']);
      expect(hits[0]?.services[0].nodes[0].match_context[0].tmscore).toBeCloseTo(1, 3);
      const beta = hits.find((h) => h.identifier === '4HHB.B');
      expect(beta?.services[0].nodes[0].match_context[0].tmscore).toBeGreaterThan(0.5);
      expect(beta?.services[0].nodes[0].match_context[0].tmscore).toBeLessThan(1);
      expect(await ids(shape({ entry_id: '4HHB', asym_id: 'A' }, { ptmscore_cutoff: 0.99 }), 'entry')).toEqual(['4HHB', '9HB1', '9HB2']);
      expect(await ids(shape({ entry_id: '4HHB', assembly_id: '1' }), 'assembly')).toEqual(['4HHB-1', '9HB1-1', '9HB2-1']);
    });

    it('refuses unknown chains and file formats the schema does not list with a 400', async () => {
      for (const value of [
        { entry_id: '4HHB', asym_id: 'Z' },
        { url: 'http://localhost/x.cif', format: 'mmcif' },
      ]) {
        const r = await post({ query: shape(value), return_type: 'entry' });
        expect(r.status).toBe(400);
        expect(r.body.status).toBe(400);
      }
    });
  });

  describe('strucmotif', () => {
    const motif = (residues: [string, number][], extra: Json = {}) => ({
      type: 'terminal',
      service: 'strucmotif',
      parameters: { value: { entry_id: '4HHB', residue_ids: residues.map(([a, s]) => ({ label_asym_id: a, label_seq_id: s, struct_oper_id: '1' })) }, ...extra },
    });
    // The two histidines of the alpha chains' heme pocket (distal E7, proximal F8).
    const HEME_HIS: [string, number][] = [
      ['A', 58],
      ['A', 87],
    ];

    it('finds the motif in every entry holding it, with residues, RMSD and transformation in verbose mode', { timeout: 120_000 }, async () => {
      const r = await post({ query: motif(HEME_HIS), return_type: 'entry', request_options: { results_verbosity: 'verbose', return_all_hits: true } });
      expect(r.status, r.raw).toBe(200);
      expect(r.body.result_set.map((h: Json) => h.identifier).sort()).toEqual(['4HHB', '9HB1', '9HB2']);
      const own = r.body.result_set.find((h: Json) => h.identifier === '4HHB').services[0].nodes[0].match_context as Json[];
      const self = own.find((c) => c.residue_ids[0].label_asym_id === 'A');
      expect(self).toMatchObject({
        score: 0,
        residue_types: ['HIS', 'HIS'],
        residue_ids: [
          { label_asym_id: 'A', label_seq_id: 58 },
          { label_asym_id: 'A', label_seq_id: 87 },
        ],
      });
      expect(self?.transformation).toHaveLength(16);
      // Chain C is the other alpha chain.
      expect(own.some((c) => c.residue_ids[0].label_asym_id === 'C')).toBe(true);
      expect(await ids(motif(HEME_HIS, { excluded_structures: ['9HB1', '9HB2'] }))).toEqual(['4HHB']);
      expect(await ids(motif(HEME_HIS, { rmsd_cutoff: 0, atom_pairing_scheme: 'BACKBONE' }))).toEqual(['4HHB', '9HB1', '9HB2']);
    });

    it('takes exchanges: a histidine allowed to be a glutamine widens nothing that is not there', async () => {
      const r = await ids(motif(HEME_HIS, { exchanges: [{ residue_id: { label_asym_id: 'A', label_seq_id: 58, struct_oper_id: '1' }, allowed: ['HIS', 'GLN'] }] }));
      expect(r).toEqual(['4HHB', '9HB1', '9HB2']);
    });

    it('refuses unknown residues and residues too far apart with a 400', async () => {
      for (const residues of [
        [
          ['A', 58],
          ['A', 999],
        ],
        [
          ['A', 1],
          ['A', 141],
        ],
      ] as [string, number][][]) {
        const r = await post({ query: motif(residues), return_type: 'entry' });
        expect(r.status).toBe(400);
        expect(r.body.status).toBe(400);
      }
    });
  });

  describe(`sequence${missing('mmseqs', 'MMseqs2')}`, () => {
    const seq = (value: string, extra: Json = {}) => ({ type: 'terminal', service: 'sequence', parameters: { value, sequence_type: 'protein', ...extra } });
    const ALPHA = 'VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKGHGKKVADALTNAVAHVDDMPNALSALSDLHAHKLRVDPVNFKLLSHCLLVTLAAHLPAEFTPAVHASLDKFLASVSTVLTSKYR';

    it.skipIf(missing('mmseqs') !== '')('finds the chains of a protein sequence with the alignment in verbose mode', { timeout: 180_000 }, async () => {
      const r = await post({
        query: seq(ALPHA.slice(0, 60), { evalue_cutoff: 0.1, identity_cutoff: 0.9 }),
        return_type: 'polymer_entity',
        request_options: { results_verbosity: 'verbose', return_all_hits: true },
      });
      expect(r.status, r.raw).toBe(200);
      expect(r.body.result_set.map((h: Json) => h.identifier)).toEqual(['4HHB_1', '9HB1_1', '9HB2_1']);
      const ctx = r.body.result_set[0].services[0].nodes[0].match_context[0];
      expect(ctx).toMatchObject({ sequence_identity: 1, query_beg: 1, query_end: 60, subject_beg: 1, subject_end: 60, query_length: 60, subject_length: 141, mismatches: 0, gaps_opened: 0 });
      expect(ctx.evalue).toBeLessThan(1e-10);
      expect(await ids(seq(ALPHA.slice(0, 60)), 'polymer_instance')).toEqual(['4HHB.A', '4HHB.C', '9HB1.A', '9HB1.C', '9HB2.A', '9HB2.C']);
    });

    it('refuses sequences under the minimum length, over the maximum, or not of the alphabet', async () => {
      for (const value of ['VLSPADKTNV', 'A'.repeat(100_000), `${ALPHA.slice(0, 40)}123`]) {
        const r = await post({ query: seq(value), return_type: 'entry' });
        expect(r.status).toBe(400);
        expect(r.body.status).toBe(400);
      }
    });
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))('RCSB Search API over the demo archive on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const ids = async (query: unknown, return_type = 'entry') => {
    const r = await t.app.inject({ method: 'POST', url: Q, payload: { query, return_type, request_options: all } as Json });
    return r.statusCode === 204 ? [] : (r.json().result_set as string[]);
  };

  beforeAll(async () => {
    store = await target.open();
    t = await pdbApp(store, [rcsbData, rcsbSearch]);
    await loadDemo(store, t.generations);
  }, 600_000);
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('tells methods, polymer types and glycans apart', async () => {
    expect(await ids(text('exptl.method', 'exact_match', 'SOLUTION NMR'))).toEqual(['0NM1']);
    expect(await ids(text('rcsb_entry_info.selected_polymer_entity_types', 'exact_match', 'Nucleic acid (only)'))).toEqual(['0NA1']);
    expect(await ids(text('rcsb_entry_info.branched_entity_count', 'greater', 0))).toEqual(['0GL1']);
    const rna = { type: 'terminal', service: 'seqmotif', parameters: { value: 'GCUUAG', pattern_type: 'simple', sequence_type: 'rna' } };
    expect(await ids(rna, 'polymer_entity')).toEqual(['0NA1_1']);
    expect(await ids(rna, 'polymer_instance')).toEqual(['0NA1.A']);
    // Ubiquitin in 0NM1 (once) and 0BG1 (linear tri-ubiquitin, 70 chains).
    const ubq = { type: 'terminal', service: 'seqmotif', parameters: { value: 'MQIFVKTLTGKTITLEVEPS', pattern_type: 'simple' } };
    expect(await ids(ubq)).toEqual(['0BG1', '0NM1']);
    expect(await ids(ubq, 'polymer_instance')).toHaveLength(71);
  });
});
