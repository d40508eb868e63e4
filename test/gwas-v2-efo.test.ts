/**
 * `show_child_trait` at EFO's full depth: EFO's efo.obo loaded with the catalog, read by the same
 * ingest as the catalog's downloads; terms found under a trait through every level of is_a links
 * (grand-children and deeper), obsolete terms left out, cycles ending, malformed stanzas reported
 * at their file and line; without the file, what the trait mappings give, as before.
 */
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oboShortForm, oboTerms, type OboItem } from '../src/services/gwas/catalog/efo.js';
import type { TestApp } from './helpers/app.js';
import { tableSet } from '../src/core/ingest/dataset.js';
import { CATALOG_PREFIX, tables } from '../src/services/gwas/catalog/store.js';
import { associations, studies } from '../src/services/gwas/v2/lists.js';
import type { Params, SortChoice } from '../src/services/gwas/v2/params.js';
import { V2Reader } from '../src/services/gwas/v2/store.js';
import { CATALOG_DEMO, get, gwasApp, loadCatalog, type Json } from './helpers/gwas.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

const V2 = '/gwas/rest/api/v2';

type Row = Record<string, string>;
function tsv(name: string): Row[] {
  const [head, ...rows] = readFileSync(join(CATALOG_DEMO, name), 'utf8').trimEnd().split('\n');
  const cols = (head as string).split('\t');
  return rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [cols[i] as string, v])));
}
const STUDIES = tsv('gwas-catalog-studies_demo.tsv');
const ASSOCS = tsv('gwas-catalog-associations_ontology-annotated_demo.tsv');
const ofTraits = (rows: Row[], ...shortForms: string[]) => rows.filter((r) => shortForms.some((sf) => (r.MAPPED_TRAIT_URI ?? '').endsWith(`/${sf}`)));
const TABLES = readdirSync(CATALOG_DEMO).filter((f) => f.endsWith('.tsv'));

/** The demo's tables in a folder of their own, with the given ontology files beside them. */
function catalogWith(obo: Record<string, string>): string {
  const dir = tempDir();
  for (const f of TABLES) copyFileSync(join(CATALOG_DEMO, f), join(dir, f));
  for (const [name, text] of Object.entries(obo)) writeFileSync(join(dir, name), text);
  return dir;
}

// Test-only terms (EFO_9999xxx and deeper) around the demo's real ones: two chains above
// hypertension (two levels, and CHAIN levels), a cycle above arm span, obsolete terms above coronary
// artery disease, and the id forms EFO's releases write.
// Longer than the terms the server lists as values (2,000): the walk from its top stays a subquery.
const CHAIN = 2100;
const deep = Array.from({ length: CHAIN }, (_, i) => `[Term]\nid: EFO:9999${String(1000 + i)}\nname: level ${i}\n${i ? `is_a: EFO:9999${String(999 + i)} ! level ${i - 1}\n` : ''}`).join('\n');
const FIXTURE = `format-version: 1.2
data-version: test
ontology: efo

[Typedef]
id: part_of
name: part of

[Term]
id: EFO:9999001
name: test grandparent

[Term]
id: efo:EFO_9999002
name: test parent
is_a: EFO:9999001 {source="test"} ! test grandparent

[Term]
id: http://www.ebi.ac.uk/efo/EFO_0000537
name: hypertension
is_a: http://www.ebi.ac.uk/efo/EFO_9999002 ! test parent
is_a: EFO:9999${String(999 + CHAIN)} ! level ${CHAIN - 1}
relationship: part_of EFO:9999005 ! not an is_a link

[Term]
id: EFO:9999005
name: test whole

[Term]
id: EFO:9999010
name: test retired parent
is_obsolete: true

[Term]
id: EFO:0001645
name: coronary artery disease
is_a: EFO:9999011 ! test retired child

[Term]
id: EFO:9999011
name: obsolete test retired child
is_a: EFO:9999010 ! test retired parent
is_obsolete: true

[Term]
id: EFO:9999020
name: test cycle a
is_a: EFO:9999021 ! test cycle b

[Term]
id: EFO:9999021
name: test cycle b
is_a: EFO:9999020 ! test cycle a

[Term]
id: EFO:0005108
name: arm span
is_a: EFO:9999021 ! test cycle b

[Term]
id: EFO:9999030
name: test broken
this line has no tag
is_a: EFO:9999001

[Term]
name: test without id
is_a: EFO:9999001

[Term]
id: Orphanet:558
name: Marfan syndrome
is_a: EFO:9999001

${deep}`;
/** Live, well-formed terms of the fixture: all but the two obsolete ones and the two malformed ones. */
const FIXTURE_TERMS = FIXTURE.split('[Term]').length - 1 - 4;

async function items(text: string): Promise<OboItem[]> {
  const out: OboItem[] = [];
  for await (const x of oboTerms(Readable.from([text]))) out.push(x);
  return out;
}

describe('reading efo.obo', () => {
  it('maps the id forms EFO releases write to the catalog short forms', () => {
    expect(oboShortForm('EFO:0000270')).toBe('EFO_0000270');
    expect(oboShortForm('efo:EFO_0000270')).toBe('EFO_0000270');
    expect(oboShortForm('MONDO:0004979')).toBe('MONDO_0004979');
    expect(oboShortForm('Orphanet:558')).toBe('Orphanet_558');
    expect(oboShortForm('OBA:VT0000188')).toBe('OBA_VT0000188');
    expect(oboShortForm('http://purl.obolibrary.org/obo/HP_0000118')).toBe('HP_0000118');
    for (const bad of ['', 'EFO', 'EFO:', ':0000270', 'EFO:0000 270']) expect(oboShortForm(bad), bad).toBeUndefined();
  });

  it('gives live terms with their is_a parents, leaves obsolete ones and other stanzas out, and names each malformed stanza by line', async () => {
    const got = await items(FIXTURE);
    const terms = got.flatMap((x) => ('term' in x ? [x.term] : []));
    expect(terms).toHaveLength(FIXTURE_TERMS);
    expect(terms.find((t) => t.shortForm === 'EFO_0000537')).toEqual({ kind: 'efoTerm', shortForm: 'EFO_0000537', label: 'hypertension', parents: ['EFO_9999002', `EFO_9999${999 + CHAIN}`] });
    expect(terms.find((t) => t.shortForm === 'EFO_9999002')?.parents).toEqual(['EFO_9999001']);
    expect(terms.map((t) => t.shortForm)).not.toContain('EFO_9999010');
    expect(terms.map((t) => t.shortForm)).not.toContain('EFO_9999011');
    expect(terms.map((t) => t.shortForm)).not.toContain('part_of');
    const lines = FIXTURE.split('\n');
    const problems = got.flatMap((x) => ('problem' in x ? [x] : []));
    expect(problems).toEqual([
      { problem: 'not a tag: value line: "this line has no tag"', line: lines.indexOf('this line has no tag') + 1 },
      { problem: '[Term] without an id', line: lines.indexOf('name: test without id') },
    ]);
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))('GWAS Catalog API v2 show_child_trait through EFO on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const total = async (url: string) => ((await get(t.app, url)).body as { page?: { totalElements: number } }).page?.totalElements;
  const accs = async (url: string) => {
    const b = (await get(t.app, url)).body as { _embedded?: Record<string, Json[]> };
    return new Set(Object.values(b._embedded ?? {})[0]?.map((x) => x.accession_id));
  };

  beforeAll(async () => {
    store = await target.open();
    t = await gwasApp(store);
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('finds a grand-child trait by its grand-parent from the demo ontology, only with show_child_trait', async () => {
    await loadCatalog(store, t.generations);
    // Hypertension and coronary artery disease are under cardiovascular disease, under disease;
    // the trait mappings know cardiovascular disease only.
    const cardio = ofTraits(ASSOCS, 'EFO_0000537', 'EFO_0001645');
    const diseases = ofTraits(ASSOCS, 'EFO_0000537', 'EFO_0001645', 'MONDO_0005148', 'EFO_0005924', 'MONDO_0004979');
    expect(cardio.length).toBeGreaterThan(1);
    expect(await total(`${V2}/associations?efo_id=EFO_0000408&show_child_trait=true`)).toBe(diseases.length);
    expect(await total(`${V2}/associations?efo_trait=disease&show_child_trait=true`)).toBe(diseases.length);
    expect(await total(`${V2}/associations?efo_id=EFO_0000408`)).toBe(0);
    expect(await total(`${V2}/associations?efo_id=EFO_0000408&show_child_trait=false`)).toBe(0);
    expect(await total(`${V2}/associations?efo_id=EFO_0000319&show_child_trait=true`)).toBe(cardio.length);
    // Type 2 diabetes is two levels under metabolic disease: diabetes mellitus between.
    expect(await total(`${V2}/associations?efo_id=MONDO_0005015&show_child_trait=true`)).toBe(ofTraits(ASSOCS, 'MONDO_0005148').length);
    const studies = ofTraits(STUDIES, 'EFO_0000537', 'EFO_0001645').map((s) => s['STUDY ACCESSION']);
    expect(await accs(`${V2}/studies?efo_id=EFO_0000408&show_child_trait=true&size=100`)).toEqual(
      new Set(ofTraits(STUDIES, 'EFO_0000537', 'EFO_0001645', 'MONDO_0005148', 'EFO_0005924', 'MONDO_0004979').map((s) => s['STUDY ACCESSION'])),
    );
    expect(await accs(`${V2}/studies?shortForm=EFO_0000319&showChildTrait=true&size=100`)).toEqual(new Set(studies));
    // The trait endpoints still list the catalog's own traits only.
    expect((await get(t.app, `${V2}/efo-traits/EFO_0000408`)).status).toBe(404);
  });

  it('walks every level, leaves obsolete terms out, ends at cycles and loads past malformed stanzas, reporting them', async () => {
    const dir = catalogWith({ 'efo.obo': FIXTURE });
    const skips: string[] = [];
    const r = await loadCatalog(store, t.generations, dir, { onSkip: (place, reason) => skips.push(`${place.file} ${place.position}: ${reason}`) });
    const tableRows = TABLES.reduce((n, f) => n + readFileSync(join(CATALOG_DEMO, f), 'utf8').trimEnd().split('\n').length - 1, 0);
    expect(r.records).toBe(tableRows + FIXTURE_TERMS);
    const lines = FIXTURE.split('\n');
    expect(skips).toEqual([
      `${join(dir, 'efo.obo')} line ${lines.indexOf('this line has no tag') + 1}: not a tag: value line: "this line has no tag"`,
      `${join(dir, 'efo.obo')} line ${lines.indexOf('name: test without id')}: [Term] without an id`,
    ]);
    expect(r.skipped).toBe(2);

    const hyper = ofTraits(ASSOCS, 'EFO_0000537').length;
    expect(await total(`${V2}/associations?efo_id=EFO_9999001&show_child_trait=true`)).toBe(hyper);
    expect(await total(`${V2}/associations?efo_id=EFO_9999001`)).toBe(0);
    expect(await total(`${V2}/associations?efo_trait=test%20grandparent&show_child_trait=true`)).toBe(hyper);
    // 2,100 levels up from hypertension, and from halfway up.
    expect(await total(`${V2}/associations?efo_id=EFO_99991000&show_child_trait=true`)).toBe(hyper);
    expect(await total(`${V2}/associations?efo_id=EFO_99992000&show_child_trait=true`)).toBe(hyper);
    expect(await total(`${V2}/studies?efo_id=EFO_99991000&show_child_trait=true`)).toBe(ofTraits(STUDIES, 'EFO_0000537').length);
    // Only is_a links count.
    expect(await total(`${V2}/associations?efo_id=EFO_9999005&show_child_trait=true`)).toBe(0);
    // Obsolete terms bring no links: coronary artery disease is not under the retired terms.
    expect(await total(`${V2}/associations?efo_id=EFO_9999010&show_child_trait=true`)).toBe(0);
    expect(await total(`${V2}/associations?efo_id=EFO_9999011&show_child_trait=true`)).toBe(0);
    // A cycle above arm span ends, from either of its terms.
    const arm = ofTraits(ASSOCS, 'EFO_0005108').length;
    expect(await total(`${V2}/associations?efo_id=EFO_9999020&show_child_trait=true`)).toBe(arm);
    expect(await total(`${V2}/associations?efo_id=EFO_9999021&show_child_trait=true`)).toBe(arm);
    // The trait mappings still widen as before, beside EFO.
    expect(await total(`${V2}/associations?efo_id=EFO_0000319&show_child_trait=true`)).toBe(ofTraits(ASSOCS, 'EFO_0000537', 'EFO_0001645').length);
  }, 60_000);

  it('answers every widened trait from what the load worked out as the walk at request time does', async () => {
    const dir = catalogWith({ 'efo.obo': FIXTURE });
    // A trait mapping that files an EFO ancestor of hypertension (not a trait itself) under a test category.
    const maps = join(dir, 'gwas-catalog-trait-mappings_demo.tsv');
    writeFileSync(maps, `${readFileSync(maps, 'utf8')}Test\ttest parent\thttp://www.ebi.ac.uk/efo/EFO_9999002\tTest category\thttp://www.ebi.ac.uk/efo/EFO_9999050\n`);
    await loadCatalog(store, t.generations, dir);
    expect(await total(`${V2}/associations?efo_id=EFO_9999050&show_child_trait=true`)).toBe(ofTraits(ASSOCS, 'EFO_0000537').length);
    const gen = (await t.generations.active('gwas', 'catalog')) as number;
    const n = tables(tableSet(CATALOG_PREFIX, gen));
    const closure = new V2Reader(store.db, n, true, true);
    const walk = new V2Reader(store.db, n, true, false);
    const terms = await store.db.query<{ sf: string; a: number }>(`SELECT short_form AS sf, assocs AS a FROM ${n.under_terms} ORDER BY id`);
    // Every term something is under but most of the chain's 2,100 levels (each a long walk), one with nothing under it, and a label.
    expect(terms.length).toBeGreaterThan(CHAIN);
    expect(terms.some((x) => x.a > 5)).toBe(true);
    const chain = /^EFO_9999[1-3]\d{3}$/;
    const some = terms.filter((x) => !chain.test(x.sf) || Number(x.sf.slice(-4)) % 700 === 0);
    expect(some.length).toBeGreaterThan(20);
    const asked: Params[] = [...some.map((x) => ({ efo_id: x.sf })), { efo_id: 'EFO_9999005' }, { efo_trait: 'disease' }];
    const sorts: (SortChoice | undefined)[] = [undefined, { key: 'p', dir: 'asc' }];
    let compared = 0;
    for (const q of asked) {
      for (const [list, sort] of [
        [associations, sorts[0]],
        [associations, sorts[1]],
        [studies, undefined],
      ] as const) {
        const p: Params = { ...q, show_child_trait: true };
        for (const paging of [
          { page: 0, size: 2 },
          { page: 1, size: 2 },
          { page: 0, size: 2000 },
          { page: 500, size: 2 },
        ]) {
          const [a, b] = [await closure.page(await list(closure, p, sort), paging), await walk.page(await list(walk, p, sort), paging)];
          expect(a, `${JSON.stringify(q)} ${list.name} ${JSON.stringify(sort)} ${JSON.stringify(paging)}`).toEqual(b);
          compared++;
        }
      }
      // With a second filter the closure is a condition among others.
      const p: Params = { ...q, show_child_trait: true, pubmed_id: ASSOCS[0]?.PUBMEDID as string };
      expect(await closure.page(await associations(closure, p), { page: 0, size: 50 })).toEqual(await walk.page(await associations(walk, p), { page: 0, size: 50 }));
    }
    expect(compared).toBe(asked.length * 12);
  }, 120_000);

  it('widens by the trait mappings alone without efo.obo, as before', async () => {
    await loadCatalog(store, t.generations, catalogWith({}));
    expect(await total(`${V2}/associations?efo_id=EFO_0000408&show_child_trait=true`)).toBe(0);
    expect(await total(`${V2}/associations?efo_id=EFO_0000319&show_child_trait=true`)).toBe(ofTraits(ASSOCS, 'EFO_0000537', 'EFO_0001645').length);
    expect(await total(`${V2}/associations?efo_id=MONDO_0005015&show_child_trait=true`)).toBe(0);
  });

  it('replaces a term and its links by an update bringing efo.obo alone', async () => {
    await loadCatalog(store, t.generations);
    expect(await total(`${V2}/associations?efo_id=EFO_0000408&show_child_trait=true`)).toBeGreaterThan(0);
    const dir = tempDir();
    // Cardiovascular disease moved under a test term: disease no longer reaches hypertension or CAD.
    writeFileSync(join(dir, 'efo.obo'), '[Term]\nid: EFO:9999040\nname: test new parent\n\n[Term]\nid: EFO:0000319\nname: cardiovascular disease\nis_a: EFO:9999040\n');
    const r = await loadCatalog(store, t.generations, dir, { update: true });
    expect(r.mode).toBe('update');
    const cardio = ofTraits(ASSOCS, 'EFO_0000537', 'EFO_0001645').length;
    expect(await total(`${V2}/associations?efo_id=EFO_9999040&show_child_trait=true`)).toBe(cardio);
    expect(await total(`${V2}/associations?efo_id=EFO_0000408&show_child_trait=true`)).toBe(ofTraits(ASSOCS, 'MONDO_0005148', 'EFO_0005924', 'MONDO_0004979').length);
  });
});
