/** What each source asks its upstream for, and two of them end to end (AlphaFold DB, the PDB archive). */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsInRanges, tarMember } from '../src/cli/fetch/derive.js';
import { Http } from '../src/cli/fetch/http.js';
import type { BulkSource, FetchOptions, Plan } from '../src/cli/fetch/plan.js';
import { fetchAndLoad, type FetchRequest } from '../src/cli/fetch/run.js';
import { models } from '../src/cli/fetch/sources/alphafold.js';
import { studies } from '../src/cli/fetch/sources/clinicaltrials.js';
import { catalog, sumstats } from '../src/cli/fetch/sources/gwas.js';
import { gene } from '../src/cli/fetch/sources/ncbi.js';
import { pharmgkb } from '../src/cli/fetch/sources/pgx.js';
import { assays, compounds } from '../src/cli/fetch/sources/pubchem.js';
import { resolveUpstreams } from '../src/cli/fetch/upstreams.js';
import { alphafold } from '../src/services/alphafold/index.js';
import { gwas } from '../src/services/gwas/index.js';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { tarOf } from '../synthetic/alphafold-generate.js';
import { AF_DEMO, loadAf } from './alphafold-fixtures.js';
import { makeApp } from './helpers/app.js';
import { fetchRequest, upstreamAndMirror } from './helpers/fetch.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { Upstream } from './helpers/upstream.js';

const PDB_DEMO = join(import.meta.dirname, '..', 'src', 'services', 'pdb', 'demo');
const GWAS_DEMO = join(import.meta.dirname, '..', 'src', 'services', 'gwas', 'demo', 'catalog');

let up: Upstream;
beforeAll(async () => {
  up = new Upstream();
  await up.start();
});
afterAll(async () => {
  await up.close();
});

function plan(source: BulkSource, opts: FetchOptions = {}, notes: string[] = []): Promise<Plan> {
  const upstreams = resolveUpstreams(
    ['ncbi', 'ebi', 'ctgov', 'wwpdb', 'alphafold', 'clinpgx', 'efo'].map((k) => `${k}=${up.url}`),
    {},
  );
  return source.plan({ http: new Http(), upstreams, opts, note: (l) => notes.push(l) });
}

/** A gzipped tar of the given members, as the taxonomy's taxdump is. */
const tarGz = (members: Record<string, string>) => gzipSync(tarOf(Object.entries(members).map(([name, text]) => ({ name, bytes: Buffer.from(text) }))));

describe('what each source fetches', () => {
  it('PubChem: SD files in id order, --limit taking the first, and the Extras cut to the ids taken', async () => {
    const sdf = 'pubchem/Compound/CURRENT-Full/SDF';
    for (const n of ['Compound_000500001_001000000.sdf.gz', 'Compound_000000001_000500000.sdf.gz']) {
      up.put(`/${sdf}/${n}`, 'x');
      up.put(`/${sdf}/${n}.md5`, `${'a'.repeat(32)}  ${n}\n`);
    }
    up.put(`/${sdf}/README`, 'x');
    for (const x of ['CID-Title.gz', 'CID-Synonym-filtered.gz', 'CID-SID.gz']) up.put(`/pubchem/Compound/Extras/${x}`, 'x');
    const notes: string[] = [];
    const p = await plan(compounds, { limit: 1 }, notes);
    expect(p.files.map((f) => [f.path, f.md5Url !== undefined, f.derive?.path])).toEqual([
      ['SDF/Compound_000000001_000500000.sdf.gz', true, undefined],
      ['Extras/CID-Title.gz', false, 'Extras/CID-Title'],
      ['Extras/CID-Synonym-filtered.gz', false, 'Extras/CID-Synonym-filtered'],
      ['Extras/CID-SID.gz', false, 'Extras/CID-SID'],
    ]);
    expect(p.source).toBe(`${up.url}/pubchem/Compound/CURRENT-Full/SDF/ (1 of 2 Compound SD files and Extras)`);
    expect(notes.join('\n')).toMatch(/cut to the CIDs of the 1 SD files taken/);
    // Without a limit the Extras are loaded whole, and only the parts asked for are fetched.
    expect((await plan(compounds)).files.filter((f) => f.derive)).toEqual([]);
    expect((await plan(compounds, { parts: ['sdf'] })).files.map((f) => f.path)).toEqual(['SDF/Compound_000000001_000500000.sdf.gz', 'SDF/Compound_000500001_001000000.sdf.gz']);

    up.put('/pubchem/Bioassay/JSON/0001001_0002000.zip', 'x');
    up.put('/pubchem/Bioassay/JSON/0000001_0001000.zip', 'x');
    up.put('/pubchem/Bioassay/Extras/bioactivities.tsv.gz', 'x');
    const a = await plan(assays, { limit: 1 });
    expect(a.files.map((f) => [f.path, f.derive?.path])).toEqual([
      ['JSON/0000001_0001000.zip', undefined],
      ['Extras/bioactivities.tsv.gz', 'Extras/bioactivities.tsv'],
    ]);
  });

  it('cuts a table to id ranges keeping its header, and takes one member out of a tar', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 't.gz'), gzipSync('AID\tSID\n1\t10\n999\t11\n1000\t12\n1001\t13\n2500\t14\n'));
    await rowsInRanges('t', [
      [1, 1000],
      [2001, 3000],
    ]).make(join(dir, 't.gz'), join(dir, 't'), new AbortController().signal);
    expect(readFileSync(join(dir, 't'), 'utf8')).toBe('AID\tSID\n1\t10\n999\t11\n1000\t12\n2500\t14\n');
    writeFileSync(join(dir, 'taxdump.tar.gz'), tarGz({ 'nodes.dmp': '1\t|\t1\t|\n', 'names.dmp': '9606\t|\tHomo sapiens\t|\t\t|\tscientific name\t|\n' }));
    await tarMember('names.dmp').make(join(dir, 'taxdump.tar.gz'), join(dir, 'names.dmp'), new AbortController().signal);
    expect(readFileSync(join(dir, 'names.dmp'), 'utf8')).toBe('9606\t|\tHomo sapiens\t|\t\t|\tscientific name\t|\n');
    await expect(tarMember('merged.dmp').make(join(dir, 'taxdump.tar.gz'), join(dir, 'm'), new AbortController().signal)).rejects.toThrow(/holds no merged\.dmp/);
  });

  it('closes the archive when the member it takes comes before the rest', { skip: !existsSync('/proc/self/fd') }, async () => {
    const dir = tempDir();
    const path = join(dir, 'taxdump.tar.gz');
    // names.dmp first, then a member far larger than what one read brings in.
    writeFileSync(
      path,
      gzipSync(
        tarOf([
          { name: 'names.dmp', bytes: Buffer.from('1\t|\troot\t|\t\t|\tscientific name\t|\n') },
          { name: 'nodes.dmp', bytes: randomBytes(8 << 20) },
        ]),
      ),
    );
    await tarMember('names.dmp').make(path, join(dir, 'names.dmp'), new AbortController().signal);
    await new Promise((r) => setTimeout(r, 50));
    const open = readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(join('/proc/self/fd', fd)) === path;
      } catch {
        return false;
      }
    });
    expect(open).toEqual([]);
  });

  it('NCBI Gene: every organism or the ones named, the other tables, names.dmp out of the taxonomy dump', async () => {
    for (const n of ['gene_info.gz', 'gene2refseq.gz', 'gene2pubmed.gz', 'gene2go.gz', 'gene_condition_source_id']) up.put(`/gene/DATA/${n}`, 'x');
    up.put('/gene/DATA/GENE_INFO/Mammalia/Homo_sapiens.gene_info.gz', 'x');
    up.put('/gene/DATA/GENE_INFO/Mammalia/Bos_taurus.gene_info.gz', 'x');
    up.put('/pub/taxonomy/taxdump.tar.gz', 'x');
    up.put('/pub/taxonomy/taxdump.tar.gz.md5', 'x');
    up.put('/refseq/release/release-catalog/RefSeq-release229.catalog.gz', 'x');
    up.put('/refseq/release/release-catalog/RefSeq-release230.catalog.gz', 'x');
    const all = await plan(gene);
    expect(all.files.map((f) => f.path)).toEqual(['gene_info.gz', 'gene2refseq.gz', 'gene2pubmed.gz', 'gene2go.gz', 'gene_condition_source_id', 'taxonomy/taxdump.tar.gz']);
    expect(all.files.at(-1)).toMatchObject({ md5Url: `${up.url}/pub/taxonomy/taxdump.tar.gz.md5`, derive: { path: 'taxonomy/names.dmp' } });
    const some = await plan(gene, { organisms: ['human', 'Mammalia/Bos_taurus'], parts: ['gene_info', 'gene2pubmed', 'catalog'] });
    expect(some.files.map((f) => f.url.slice(up.url.length))).toEqual([
      '/gene/DATA/GENE_INFO/Mammalia/Homo_sapiens.gene_info.gz',
      '/gene/DATA/GENE_INFO/Mammalia/Bos_taurus.gene_info.gz',
      '/gene/DATA/gene2pubmed.gz',
      '/refseq/release/release-catalog/RefSeq-release230.catalog.gz',
    ]);
    await expect(plan(gene, { organisms: ['Mammalia/Nosuch_animal'] })).rejects.toThrow(/does not list Nosuch_animal\.gene_info\.gz/);
  });

  it("GWAS: the release folder's files by kind whatever their names, and a study's GWAS-SSF file or else its harmonised one", async () => {
    const rel = '/pub/databases/gwas/releases/latest';
    for (const n of [
      'gwas-catalog-associations.tsv',
      'gwas-catalog-associations_ontology-annotated.tsv',
      'gwas-catalog-associations_ontology-annotated-full.zip',
      'gwas-catalog-studies.tsv',
      'gwas-catalog-download-studies-v1.0.3.1.txt',
      'gwas-catalog-download-ancestries-v1.0.3.1.txt',
    ])
      up.put(`${rel}/${n}`, 'x');
    const c = await plan(catalog);
    // EFO's efo.obo, from its latest release (an address of its own), for show_child_trait.
    expect(c.files.map((f) => f.path)).toEqual([
      'gwas-catalog-associations_ontology-annotated-full.zip',
      'gwas-catalog-download-studies-v1.0.3.1.txt',
      'gwas-catalog-download-ancestries-v1.0.3.1.txt',
      'efo.obo',
    ]);
    expect(c.files.at(-1)?.url).toBe(`${up.url}/efo.obo`);
    expect((await plan(catalog, { parts: ['efo'] })).files).toEqual([{ url: `${up.url}/efo.obo`, path: 'efo.obo' }]);
    expect((await plan(catalog, { parts: ['associations', 'studies', 'ancestry'] })).files.map((f) => f.path)).not.toContain('efo.obo');
    // Asked for by name, a file the release lacks is an error; by default it is left out.
    await expect(plan(catalog, { parts: ['unpublished'] })).rejects.toThrow(/no unpublished studies file/);
    // The files API v2 also answers from are taken when the release lists them.
    for (const n of ['gwas-catalog-unpublished-studies-v1.0.3.1.tsv', 'gwas-catalog-unpublished-ancestries-v1.0.3.1.tsv', 'gwas-catalog-trait-mappings_r2026-11-01.tsv']) up.put(`${rel}/${n}`, 'x');
    expect((await plan(catalog)).files.map((f) => f.path)).toEqual([
      'gwas-catalog-associations_ontology-annotated-full.zip',
      'gwas-catalog-download-studies-v1.0.3.1.txt',
      'gwas-catalog-download-ancestries-v1.0.3.1.txt',
      'gwas-catalog-unpublished-studies-v1.0.3.1.tsv',
      'gwas-catalog-unpublished-ancestries-v1.0.3.1.tsv',
      'gwas-catalog-trait-mappings_r2026-11-01.tsv',
      'efo.obo',
    ]);
    expect((await plan(catalog, { parts: ['trait-mappings'] })).files.map((f) => f.path)).toEqual(['gwas-catalog-trait-mappings_r2026-11-01.tsv']);

    const ss = '/pub/databases/gwas/summary_statistics';
    up.put(`${ss}/GCST90475001-GCST90476000/GCST90475826/GCST90475826.tsv.gz`, 'x');
    up.put(`${ss}/GCST90475001-GCST90476000/GCST90475826/GCST90475826.tsv.gz-meta.yaml`, 'x');
    up.put(`${ss}/GCST90038001-GCST90039000/GCST90038651/GCST90038651_buildGRCh37.tsv`, 'x');
    up.put(`${ss}/GCST90038001-GCST90039000/GCST90038651/harmonised/33959723-GCST90038651-EFO_0004262.h.tsv.gz`, 'x');
    up.put(`${ss}/GCST90038001-GCST90039000/GCST90038651/harmonised/33959723-GCST90038651-EFO_0004262.h.tsv.gz-meta.yaml`, 'x');
    up.put(`${ss}/GCST000001-GCST001000/GCST000392/old_format.txt`, 'x');
    const s = await plan(sumstats, { ids: ['GCST90475826', 'gcst90038651'] });
    expect(s.files.map((f) => f.path)).toEqual([
      'GCST90475826/GCST90475826.tsv.gz',
      'GCST90475826/GCST90475826.tsv.gz-meta.yaml',
      'GCST90038651/33959723-GCST90038651-EFO_0004262.h.tsv.gz',
      'GCST90038651/33959723-GCST90038651-EFO_0004262.h.tsv.gz-meta.yaml',
    ]);
    await expect(plan(sumstats, { ids: ['GCST000392'] })).rejects.toThrow(/no summary statistics in GWAS-SSF .* for GCST000392/);
  });

  it('ClinicalTrials.gov, ClinPGx and AlphaFold proteomes: the addresses they publish', async () => {
    expect((await plan(studies)).files).toEqual([{ url: `${up.url}/api/v2/studies/download?format=json.zip`, path: 'ctg-studies.json.zip' }]);
    const pgx = await plan(pharmgkb, { parts: ['genes', 'guidelineAnnotations'] });
    expect(pgx.files.map((f) => f.url)).toEqual([`${up.url}/v1/download/file/data/genes.zip`, `${up.url}/v1/download/file/data/guidelineAnnotations.json.zip`]);
    for (const n of ['UP000005640_9606_HUMAN_v6.tar', 'UP000000589_10090_MOUSE_v6.tar', 'swissprot_cif_v6.tar', 'download_metadata.json']) up.put(`/pub/databases/alphafold/latest/${n}`, 'x');
    const af = await plan(models, { limit: 1 });
    expect(af.files.map((f) => f.path)).toEqual(['proteomes/UP000000589_10090_MOUSE_v6.tar']);
    expect(af.release).toBe('v6');
    expect((await plan(models, { ids: ['up000005640'] })).files.map((f) => f.path)).toEqual(['proteomes/UP000005640_9606_HUMAN_v6.tar']);
    await expect(plan(models, { ids: ['UP000000001'] })).rejects.toThrow(/has no tar of proteome UP000000001/);
    await expect(plan(models, { ids: ['not an id'] })).rejects.toThrow(/expected UniProt accessions/);
  });
});

function request(s: OpenedStore, service: string, dataset: string, upstreams: string[], opts: FetchOptions): FetchRequest {
  return fetchRequest(s, upstreams, { service, dataset, opts });
}

for (const target of STORES) {
  describe(`fetching entries on ${target.name}`, { timeout: 300_000 }, () => {
    it('AlphaFold DB by accession: the prediction API gives the files and the metadata, and the mirror answers as its upstream', () =>
      // The upstream's links carry the host it was asked on, as the real API's do.
      upstreamAndMirror(
        target,
        (s) => makeApp(s, { services: [alphafold] }),
        async ({ a, b, appA, appB, up: af }) => {
          // The upstream carries the demo with an MSA and one AlphaMissense table (generated text) of P69905.
          const upDir = tempDir('biomirror-af-up-');
          for (const n of readdirSync(AF_DEMO)) if (n !== 'README.md') writeFileSync(join(upDir, n), readFileSync(join(AF_DEMO, n)));
          writeFileSync(join(upDir, 'AF-P69905-F1-msa_v4.a3m'), '>101\nMVLSPADKTN\n>generated\nMVLSPADKTN\n');
          writeFileSync(join(upDir, 'AF-P69905-F1-hg38.csv'), 'CHROM,POS,REF,ALT\nchr16,1,A,C\n');
          await loadAf(a, appA.generations, upDir);
          const load = await fetchAndLoad(b.db, appB.generations, request(b, 'alphafold', 'models', [`alphafold=${af.url}/alphafold`], { ids: ['P69905'] }));
          expect(load).toMatchObject({ release: 'v4' });
          // The record's optional files are asked for too; the two the upstream lacks (404) are passed over.
          expect(af.requests.map((r) => r.path).sort()).toEqual(
            [
              '/alphafold/api/prediction/P69905',
              '/alphafold/files/msa/AF-P69905-F1-msa_v4.a3m',
              ...['model_v4.cif', 'confidence_v4.json', 'predicted_aligned_error_v4.json', 'aa-substitutions.csv', 'hg19.csv', 'hg38.csv'].map((f) => `/alphafold/files/AF-P69905-F1-${f}`),
            ].sort(),
          );
          for (const path of [
            '/alphafold/api/prediction/P69905',
            '/alphafold/files/AF-P69905-F1-confidence_v4.json',
            '/alphafold/api/uniprot/summary/P69905.json',
            '/alphafold/files/msa/AF-P69905-F1-msa_v4.a3m',
            '/alphafold/files/AF-P69905-F1-hg38.csv',
          ]) {
            const [x, y] = await Promise.all([appA.app.inject(path), appB.app.inject(path)]);
            expect(y.statusCode, path).toBe(200);
            expect(y.body, path).toBe(x.body);
          }
          expect((await appB.app.inject('/alphafold/files/AF-P69905-F1-hg19.csv')).statusCode).toBe(404);
          expect((await appB.app.inject('/alphafold/api/prediction/P68871')).statusCode).toBe(404);
          const missing = await fetchAndLoad(b.db, appB.generations, request(b, 'alphafold', 'models', [`alphafold=${af.url}/alphafold`], { ids: ['Q00000'] })).catch((e: unknown) => e);
          expect((missing as Error).message).toMatch(/^AlphaFold DB has no prediction for Q00000/);
        },
        { forwardHost: true },
      ));

    it('the PDB archive: entries by id several at a time, structure factors where they exist, the holdings for --limit, unchanged files kept', async () => {
      const s = await target.open();
      const t = await makeApp(s, { services: [rcsbData] });
      const pdb = new Upstream();
      await pdb.start();
      try {
        const div = '/pub/pdb/data/structures/divided';
        for (const [mid, id] of [
          ['hh', '4hhb'],
          ['na', '0na1'],
          ['bg', '0bg1'],
        ])
          pdb.put(`${div}/mmCIF/${mid}/${id}.cif.gz`, readFileSync(join(PDB_DEMO, 'archive', mid as string, `${id}.cif.gz`)));
        pdb.put(`${div}/structure_factors/na/r0na1sf.ent.gz`, readFileSync(join(PDB_DEMO, 'structure_factors/na/r0na1sf.ent.gz')));
        pdb.put('/pub/pdb/holdings/current_file_holdings.json.gz', gzipSync(JSON.stringify({ '4HHB': {}, '0NA1': {}, '0BG1': {} })));
        const upstreams = [`wwpdb=${pdb.url}`];
        const two = await fetchAndLoad(s.db, t.generations, request(s, 'rcsb-data', 'archive', upstreams, { ids: ['4HHB', '0na1'], parts: ['cif', 'sf'] }));
        expect(two?.records).toBe(2);
        expect(pdb.seen(`${div}/structure_factors/hh/r4hhbsf.ent.gz`)).toHaveLength(1);
        expect((await t.app.inject('/rcsb/data/rest/v1/core/entry/4HHB')).statusCode).toBe(200);
        expect((await t.app.inject('/rcsb/data/rest/v1/core/entry/0BG1')).statusCode).toBe(404);

        // Again: each file is asked about and kept as it was.
        const again = await fetchAndLoad(s.db, t.generations, request(s, 'rcsb-data', 'archive', upstreams, { ids: ['4hhb', '0na1'], parts: ['cif', 'sf'] }));
        expect(again?.records).toBe(2);
        expect(pdb.seen(`${div}/mmCIF/hh/4hhb.cif.gz`).map((r) => r.headers['if-none-match'] !== undefined)).toEqual([false, true]);

        const first = await fetchAndLoad(s.db, t.generations, request(s, 'rcsb-data', 'archive', upstreams, { limit: 1 }));
        expect(first?.records).toBe(1);
        expect((await t.app.inject('/rcsb/data/rest/v1/core/entry/0BG1')).statusCode).toBe(200);
        expect((await t.app.inject('/rcsb/data/rest/v1/core/entry/4HHB')).statusCode).toBe(404);
      } finally {
        await pdb.close();
        await t.close();
        await s.cleanup();
      }
    }, 120_000);
  });
}

for (const target of STORES) {
  describe(`fetching the GWAS Catalog on ${target.name}`, { timeout: 120_000 }, () => {
    it('takes the release folder and efo.obo of the latest EFO release from their upstreams, and the load widens traits through EFO', async () => {
      const s = await target.open();
      const t = await makeApp(s, { services: [gwas], prefixed: true });
      const ebi = new Upstream();
      const efo = new Upstream();
      await ebi.start();
      await efo.start();
      try {
        for (const n of readdirSync(GWAS_DEMO)) {
          if (n.endsWith('.tsv')) ebi.put(`/pub/databases/gwas/releases/latest/${n}`, readFileSync(join(GWAS_DEMO, n)));
          else if (n.endsWith('.obo')) efo.put('/EBISPOT/efo/releases/latest/download/efo.obo', readFileSync(join(GWAS_DEMO, n)));
        }
        const load = await fetchAndLoad(s.db, t.generations, request(s, 'gwas', 'catalog', [`ebi=${ebi.url}`, `efo=${efo.url}/EBISPOT/efo/releases/latest/download`], {}));
        const terms = readFileSync(join(GWAS_DEMO, 'efo_demo.obo'), 'utf8').split('[Term]').length - 1;
        expect(load?.records).toBeGreaterThan(terms);
        expect(efo.seen('/EBISPOT/efo/releases/latest/download/efo.obo').length).toBeGreaterThan(0);
        // Hypertension is under cardiovascular disease, under disease: only EFO knows the second step.
        const r = await t.app.inject('/gwas/rest/api/v2/associations?efo_id=EFO_0000408&show_child_trait=true');
        expect(r.statusCode).toBe(200);
        expect((r.json() as { page: { totalElements: number } }).page.totalElements).toBeGreaterThan(0);
      } finally {
        await ebi.close();
        await efo.close();
        await t.close();
        await s.cleanup();
      }
    });
  });
}
