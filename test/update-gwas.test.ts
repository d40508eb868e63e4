import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadAborted } from '../src/core/ingest/errors.js';
import { describeLoad } from '../src/core/ingest/report.js';
import type { TestApp } from './helpers/app.js';
import { API, CATALOG_DEMO, SS, SUMSTATS_DEMO, get, gwasApp, loadCatalog, loadSumstats, ssfStudy, type Json } from './helpers/gwas.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { folderOf, stopAfterFirstBatch } from './helpers/updates.js';

type Table = { header: string[]; rows: string[][] };

function table(name: string): Table {
  const [head, ...rows] = readFileSync(join(CATALOG_DEMO, name), 'utf8').trimEnd().split('\n');
  return { header: (head as string).split('\t'), rows: rows.map((r) => r.split('\t')) };
}
const text = (t: Table) => [t.header, ...t.rows].map((r) => r.join('\t')).join('\n') + '\n';
const col = (t: Table, name: string) => t.header.indexOf(name);

const STUDIES = table('gwas-catalog-studies_demo.tsv');
const ASSOCS = table('gwas-catalog-associations_ontology-annotated_demo.tsv');
const NEW = 'GCST99999901';
const REPLACED = 'GCST001084';

/** A later release cut to two studies: a new one, and GCST001084 with one association left of five. */
function laterRelease(): string {
  const acc = col(STUDIES, 'STUDY ACCESSION');
  const study = [...(STUDIES.rows.find((r) => r[acc] === REPLACED) as string[])];
  study[acc] = NEW;
  const aAcc = col(ASSOCS, 'STUDY ACCESSION');
  const kept = ASSOCS.rows.find((r) => r[aAcc] === REPLACED) as string[];
  const added = [...kept];
  added[aAcc] = NEW;
  return folderOf({
    'gwas-catalog-studies.tsv': text({ header: STUDIES.header, rows: [study] }),
    'gwas-catalog-associations_ontology-annotated.tsv': text({ header: ASSOCS.header, rows: [kept, added] }),
  });
}

/** SNPs that only GCST001084's dropped associations name. */
function snpsOnlyDropped(): string[] {
  const aAcc = col(ASSOCS, 'STUDY ACCESSION');
  const snps = col(ASSOCS, 'SNPS');
  const first = ASSOCS.rows.find((r) => r[aAcc] === REPLACED) as string[];
  const others = new Set(ASSOCS.rows.filter((r) => r[aAcc] !== REPLACED || r === first).flatMap((r) => (r[snps] as string).split(/[;x ,]+/)));
  return [...new Set(ASSOCS.rows.filter((r) => r[aAcc] === REPLACED && r !== first).flatMap((r) => (r[snps] as string).split(/[;x ,]+/)))].filter((s) => s && !others.has(s));
}

for (const target of STORES) {
  describe(`GWAS Catalog updates on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await gwasApp(s);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });

    const json = async (url: string) => {
      t.generations.invalidate();
      return get(t.app, url);
    };
    const total = async (repo: string) => ((await json(`${API}/${repo}?size=1`)).body.page as { totalElements: number }).totalElements;
    /** Every item of a list, page by page (pages are ranges of a dense number: a gap would lose items). */
    const walk = async (repo: string, size: number) => {
      const out: Json[] = [];
      for (let page = 0; ; page++) {
        const b = (await json(`${API}/${repo}?size=${size}&page=${page}`)).body as { _embedded?: Record<string, Json[]> };
        const got = b._embedded?.[repo] ?? [];
        out.push(...got);
        if (got.length < size) return out;
      }
    };

    it('adds a new study and replaces one whole (its associations), keeping the lists dense', async () => {
      await loadCatalog(s, t.generations, CATALOG_DEMO, { source: 'demo:gwas/catalog' });
      const before = { studies: await total('studies'), assocs: await total('associations') };
      const dropped = snpsOnlyDropped();
      expect(dropped.length).toBeGreaterThan(0);
      for (const rs of dropped) expect((await json(`${API}/singleNucleotidePolymorphisms/${rs}`)).status).toBe(200);

      const r = await loadCatalog(s, t.generations, laterRelease(), { update: true });
      expect(r.changes?.parts).toMatchObject({ study: { added: 1, replaced: 0 }, association: { added: 1, replaced: 1 } });
      expect(await total('studies')).toBe(before.studies + 1);
      expect(await total('associations')).toBe(before.assocs - 5 + 2);
      expect((await json(`${API}/studies/${NEW}`)).status).toBe(200);
      const ofReplaced = (await json(`${API}/studies/${REPLACED}/associations`)).body as { _embedded?: Record<string, Json[]> };
      expect(ofReplaced._embedded?.associations).toHaveLength(1);
      // Every page is full but the last: no gaps where the replaced associations were.
      expect((await walk('associations', 3)).length).toBe(before.assocs - 3);
      expect((await walk('studies', 2)).length).toBe(before.studies + 1);
      // SNPs no association names any more are gone.
      for (const rs of dropped) expect((await json(`${API}/singleNucleotidePolymorphisms/${rs}`)).status).toBe(404);
      expect(describeLoad('gwas/catalog', r)).toEqual([
        `updated gwas/catalog: studies 1 added, 0 replaced, 0 deleted; now ${before.studies + 1} studies (generation ${r.gen})`,
        '  also replaced: association of 1, added to 1',
        expect.stringMatching(new RegExp(`^  started from ${before.studies} studies loaded \\d{4}-\\d{2}-\\d{2} from demo`)),
        // The update rebuilds what is under each trait, as a full load does.
        expect.stringMatching(
          /^ {2}took [\d.]+ s: records read and written in [\d.]+ s, then [\d.]+ s of indexes [\d.]+ s, what is under each trait \(show_child_trait\) [\d.]+ s, statistics [\d.]+ s$/,
        ),
      ]);
    });

    it('replaces unpublished studies by accession and trait mappings by term, as v2 serves them', async () => {
      // The demo's tables without its EFO extract (where hypertension is under cardiovascular disease
      // too), so that the trait mappings alone widen a trait here.
      const tables = readdirSync(CATALOG_DEMO).filter((f) => f.endsWith('.tsv'));
      await loadCatalog(s, t.generations, folderOf(Object.fromEntries(tables.map((f) => [f, readFileSync(join(CATALOG_DEMO, f), 'utf8')]))), { source: 'demo:gwas/catalog' });
      const V2 = `${API}/v2`;
      const unpub = table('gwas-catalog-unpublished-studies_demo.tsv');
      const row = [...(unpub.rows.find((r) => r[col(unpub, 'STUDY ACCESSION')] === 'GCST99000101') as string[])];
      row[col(unpub, 'COHORT')] = 'NEWCOHORT';
      const maps = table('gwas-catalog-trait-mappings_demo.tsv');
      // Hypertension moves from cardiovascular disease to body measurement.
      const moved = maps.rows.filter((r) => r[1] === 'hypertension').map((r) => [r[0], r[1], r[2], 'Body measurement', 'http://www.ebi.ac.uk/efo/EFO_0004324'] as string[]);
      const r = await loadCatalog(
        s,
        t.generations,
        folderOf({
          'gwas-catalog-unpublished-studies.tsv': text({ header: unpub.header, rows: [row] }),
          'gwas-catalog-trait-mappings.tsv': text({ header: maps.header, rows: moved }),
        }),
        { update: true },
      );
      expect(r.changes?.parts).toMatchObject({ unpublished: { added: 0, replaced: 1 }, traitMapping: { added: 0, replaced: 1 } });
      expect((await json(`${V2}/unpublished-studies/GCST99000101`)).body).toMatchObject({ cohort: 'NEWCOHORT' });
      expect(((await json(`${V2}/unpublished-studies`)).body.page as { totalElements: number }).totalElements).toBe(3);
      const under = async (sf: string) =>
        (((await json(`${V2}/studies?efo_id=${sf}&show_child_trait=true&size=50`)).body._embedded as Record<string, Json[]> | undefined)?.studies ?? []).map((x) => x.disease_trait);
      expect(new Set(await under('EFO_0000319'))).toEqual(new Set(['Coronary heart disease (SNP X SNP interaction)']));
      expect(await under('EFO_0004324')).toContain('Hypertension');
      // A body of work no unpublished study names any more would go; this one still has two.
      expect(((await json(`${V2}/body-of-works`)).body.page as { totalElements: number }).totalElements).toBe(2);
    });

    it('keeps what is served when an update stops part-way', async () => {
      await loadCatalog(s, t.generations);
      const before = await total('associations');
      await expect(loadCatalog(s, t.generations, laterRelease(), { update: true, ...stopAfterFirstBatch() })).rejects.toThrow(LoadAborted);
      expect(await total('associations')).toBe(before);
      expect((await json(`${API}/studies/${NEW}`)).status).toBe(404);
    });

    it('adds summary statistics of a new study and replaces a study released again', async () => {
      await loadSumstats(s, t.generations, SUMSTATS_DEMO);
      const studies = async () => {
        // One list per trait, each with the studies of that trait.
        const b = (await json(`${SS}/studies?size=50`)).body as { _embedded?: { studies: { study_accession: string }[][] } };
        return [...new Set((b._embedded?.studies ?? []).flat().map((x) => x.study_accession))].sort();
      };
      const rows = async (acc: string) => {
        const b = (await json(`${SS}/studies/${acc}/associations?size=500`)).body as { _embedded?: { associations: Record<string, unknown> } };
        return Object.keys(b._embedded?.associations ?? {}).length;
      };
      const before = await studies();
      const dir = tempDir();
      await ssfStudy(dir, 'GCST90000999', 40);
      await ssfStudy(dir, 'GCST005038', 25);
      const r = await loadSumstats(s, t.generations, dir, { update: true });
      expect(r.changes?.parts.study).toEqual({ added: 1, replaced: 1, deleted: 0 });
      expect(await studies()).toEqual([...before, 'GCST90000999'].sort());
      expect(await rows('GCST90000999')).toBe(40);
      expect(await rows('GCST005038')).toBe(25);
      expect(await rows('GCST005353')).toBeGreaterThan(0);
      // Found by position too (the marks are made again): every row of the new study, chromosome by chromosome.
      let byPosition = 0;
      for (let c = 1; c <= 25; c++) {
        const b = (await json(`${SS}/chromosomes/${c}/associations?study_accession=GCST90000999&size=1000`)).body as { _embedded?: { associations: Record<string, unknown> } };
        byPosition += Object.keys(b._embedded?.associations ?? {}).length;
      }
      expect(byPosition).toBe(40);
    });
  });
}
