/**
 * The built-in skills, end to end: every script runs in the sandbox against a biomirror serving
 * the demo data, calling the public hosts as written, and its answer is checked against what the
 * mirror itself serves. Skills of services not in this build are skipped, saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_SKILLS } from '../src/services/exec/settings.js';
import { ensureDemoAccounts } from '../src/services/protocols/demo.js';
import { SERVICES } from '../src/services/registry.js';
import type { TestApp } from './helpers/app.js';
import { execute, mirrorApp, missingSandbox } from './helpers/exec.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

const skip = missingSandbox();
const data = SERVICES.filter((s) => s.id !== 'exec');
const inBuild = (mount: string) => (data.some((s) => mount === s.mount || mount.startsWith(`${s.mount}/`)) ? '' : ' (skipped: service not in this build)');

type Json = Record<string, unknown>;

describe.skipIf(skip !== '')(`the built-in skills${skip}`, () => {
  let store: OpenedStore;
  let t: TestApp;
  const run = async (skill: string, script: string, args: (string | number)[] = []) => {
    const r = await execute(t.app, skill, script, args);
    return { ...r, out: (r.json.stdout ? JSON.parse(r.json.stdout) : undefined) as Json };
  };
  const direct = async (url: string, headers: Record<string, string> = {}) => (await t.app.inject({ url, headers })).json() as Json;

  beforeAll(async () => {
    store = await (STORES[0] as (typeof STORES)[number]).open();
    t = await mirrorApp(store, data, { skillDirs: [BUILTIN_SKILLS], concurrency: 4 });
    // The demo client token the protocols.io skill is run with.
    await ensureDemoAccounts(store.db);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('are all valid Agent Skills, each with scripts and a usage line per script', async () => {
    const h = (await t.app.inject('/exec/api/health')).json() as { skills: { count: number; invalid: unknown[] } };
    expect(h.skills.invalid).toEqual([]);
    const list = (await t.app.inject('/exec/api/skills')).json() as { count: number; skills: { name: string; scripts: { name: string; usage: string | null }[] }[] };
    expect(list.skills.map((s) => s.name).sort()).toEqual(
      ['alphafold', 'biorxiv-preprints', 'clinical-trials', 'clinvar-variants', 'gwas-catalog', 'ncbi-gene', 'pharmgkb', 'protocols-io', 'pubchem-compounds', 'rcsb-pdb'].sort(),
    );
    for (const s of list.skills) {
      expect(s.scripts.length, s.name).toBeGreaterThan(0);
      for (const script of s.scripts) expect(script.usage, `${s.name}/${script.name}`).toMatch(new RegExp(`^${script.name}\\.py `));
    }
  });

  describe(`ncbi-gene${inBuild('/eutils')}`, () => {
    it.skipIf(inBuild('/eutils') !== '')('searches genes and summarises one, by id or symbol', async () => {
      const found = await run('ncbi-gene', 'search_genes', ['BRCA1']);
      expect(found.json.stderr).toBe('');
      const genes = found.out.genes as Json[];
      expect(genes[0]).toMatchObject({ gene_id: '672', symbol: 'BRCA1', organism: 'Homo sapiens', chromosome: '17' });
      const mirror = (await direct('/eutils/entrez/eutils/esummary.fcgi?db=gene&id=672&retmode=json')).result as Record<string, Json>;
      for (const arg of ['672', 'BRCA1']) {
        const one = await run('ncbi-gene', 'gene_summary', [arg]);
        expect(one.json.success, one.json.stderr).toBe(true);
        expect(one.out).toMatchObject({ gene_id: '672', symbol: 'BRCA1', name: mirror['672']?.description, map_location: mirror['672']?.maplocation });
      }
      const unknown = await run('ncbi-gene', 'search_genes', ['NOSUCHGENE1']);
      expect(unknown.out).toMatchObject({ count: 0, genes: [], not_found: ['NOSUCHGENE1'] });
      const none = await run('ncbi-gene', 'gene_summary', ['NOSUCHGENE1']);
      expect(none.json).toMatchObject({ success: false, returncode: 1 });
      expect(none.json.stderr).toContain('no human gene has the symbol NOSUCHGENE1');
    });
  });

  describe(`clinvar-variants${inBuild('/eutils')}`, () => {
    it.skipIf(inBuild('/eutils') !== '')('lists the ClinVar variants of a gene, filtered by classification', async () => {
      const all = await run('clinvar-variants', 'gene_variants', ['HFE']);
      expect(all.json.success, all.json.stderr).toBe(true);
      const ids = ((await direct('/eutils/entrez/eutils/esearch.fcgi?db=clinvar&term=HFE%5Bgene%5D&retmode=json&retmax=100')).esearchresult as { idlist: string[] }).idlist;
      expect((all.out.variants as Json[]).map((v) => v.uid).sort()).toEqual([...ids].sort());
      const c282y = (all.out.variants as Json[]).find((v) => String(v.title).includes('p.Cys282Tyr'));
      expect(c282y).toMatchObject({ accession: 'VCV000000009', dbsnp: 'rs1800562', grch38: { chr: '6', start: '26092913' } });
      const pathogenic = await run('clinvar-variants', 'gene_variants', ['HFE', '--significance', 'pathogenic']);
      const kept = pathogenic.out.variants as Json[];
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThanOrEqual(ids.length);
      for (const v of kept) expect(String(v.classification).toLowerCase()).toContain('pathogenic');
    });
  });

  describe(`pubchem-compounds${inBuild('/pubchem')}`, () => {
    it.skipIf(inBuild('/pubchem') !== '')('gives compound properties and similar compounds', async () => {
      const props = await run('pubchem-compounds', 'compound_properties', ['aspirin']);
      expect(props.json.success, props.json.stderr).toBe(true);
      expect((props.out.compounds as Json[])[0]).toMatchObject({ CID: 2244, MolecularFormula: 'C9H8O4', MolecularWeight: '180.16' });
      const byCid = await run('pubchem-compounds', 'compound_properties', ['2244']);
      expect(byCid.out.compounds).toEqual(props.out.compounds);
      const similar = await run('pubchem-compounds', 'similar_compounds', ['aspirin', '--threshold', '80']);
      expect(similar.json.success, similar.json.stderr).toBe(true);
      const mirror = (await direct('/pubchem/rest/pug/compound/fastsimilarity_2d/smiles/CC(%3DO)OC1%3DCC%3DCC%3DC1C(%3DO)O/cids/JSON?Threshold=80')).IdentifierList as { CID: number[] };
      expect((similar.out.similar as Json[]).map((c) => c.CID)).toEqual(mirror.CID.slice(0, 20));
      const unknown = await run('pubchem-compounds', 'compound_properties', ['no-such-compound-xyz']);
      expect(unknown.json.returncode).toBe(2);
      expect(unknown.json.stderr).toContain('PUGREST.NotFound');
    });
  });

  describe(`clinical-trials${inBuild('/clinicaltrials')}`, () => {
    it.skipIf(inBuild('/clinicaltrials') !== '')('finds trials by condition and status, and summarises one', async () => {
      const found = await run('clinical-trials', 'search_trials', ['--condition', 'melanoma', '--status', 'RECRUITING', '--limit', '2']);
      expect(found.json.success, found.json.stderr).toBe(true);
      const mirror = await direct('/clinicaltrials/api/v2/studies?query.cond=melanoma&filter.overallStatus=RECRUITING&countTotal=true&pageSize=100');
      expect(found.out.total).toBe(mirror.totalCount);
      const trials = found.out.trials as Json[];
      expect(trials).toHaveLength(Math.min(2, mirror.totalCount as number));
      for (const trial of trials) expect(trial.status).toBe('RECRUITING');
      const one = await run('clinical-trials', 'get_trial', ['NCT02513394']);
      expect(one.json.success, one.json.stderr).toBe(true);
      const study = (await direct('/clinicaltrials/api/v2/studies/NCT02513394')).protocolSection as Record<string, Json>;
      expect(one.out).toMatchObject({ nct_id: 'NCT02513394', title: study.identificationModule?.briefTitle, status: study.statusModule?.overallStatus });
      expect((await run('clinical-trials', 'get_trial', ['NCT99999999'])).json.returncode).toBe(2);
    });
  });

  describe(`pharmgkb${inBuild('/pgx')}`, () => {
    it.skipIf(inBuild('/pgx') !== '')('lists gene-drug pairs and guidelines of a gene', async () => {
      const pairs = await run('pharmgkb', 'gene_drug_pairs', ['CYP2D6']);
      expect(pairs.json.success, pairs.json.stderr).toBe(true);
      const mirror = (await direct('/pgx/v1/geneDrugPair?gene=CYP2D6')) as unknown as Json[];
      expect((pairs.out.pairs as Json[]).map((p) => p.drug)).toEqual(mirror.map((p) => p.drug));
      expect(pairs.out.pairs).toContainEqual(expect.objectContaining({ drug: 'codeine', cpic_level: 'A' }));
      const guidelines = await run('pharmgkb', 'guidelines', ['CYP2D6', '--drug', 'codeine']);
      const g = guidelines.out.guidelines as Json[];
      expect(g.length).toBeGreaterThan(0);
      for (const x of g) expect(x.drugs).toContain('codeine');
      expect(JSON.stringify(g)).toContain('Ultrarapid Metabolizer');
    });
  });

  describe(`biorxiv-preprints${inBuild('/biorxiv')}`, () => {
    it.skipIf(inBuild('/biorxiv') !== '')('lists preprints of a date range, by category', async () => {
      const all = await run('biorxiv-preprints', 'preprints_by_date', ['2024-01-01', '2024-01-31']);
      expect(all.json.success, all.json.stderr).toBe(true);
      const mirror = ((await direct('/biorxiv/details/biorxiv/2024-01-01/2024-01-31/0')).messages as Json[])[0];
      expect(all.out.total).toBe(Number(mirror?.total));
      expect((all.out.preprints as Json[]).length).toBe(Number(mirror?.total));
      const neuro = await run('biorxiv-preprints', 'preprints_by_date', ['2024-01-01', '2024-01-31', '--category', 'neuroscience']);
      const papers = neuro.out.preprints as Json[];
      expect(papers.length).toBeGreaterThan(0);
      expect(papers.length).toBeLessThan((all.out.preprints as Json[]).length);
      for (const p of papers) expect(p.category).toBe('neuroscience');
    });
  });

  describe(`gwas-catalog${inBuild('/gwas')}`, () => {
    it.skipIf(inBuild('/gwas') !== '')('lists the associations of a trait and of a variant', async () => {
      const variant = await run('gwas-catalog', 'variant_associations', ['rs7903146']);
      expect(variant.json.success, variant.json.stderr).toBe(true);
      const mirror = ((await direct('/gwas/rest/api/singleNucleotidePolymorphisms/rs7903146/associations')) as { _embedded: { associations: Json[] } })._embedded.associations;
      expect((variant.out.associations as Json[]).length).toBe(mirror.length);
      expect((variant.out.associations as Json[])[0]).toMatchObject({ rs_id: 'rs7903146', risk_allele: 'rs7903146-T' });
      const trait = await run('gwas-catalog', 'trait_associations', ['type 2 diabetes mellitus']);
      expect(trait.json.success, trait.json.stderr).toBe(true);
      expect(trait.out.traits).toContainEqual(expect.objectContaining({ short_form: 'MONDO_0005148' }));
      expect((trait.out.associations as Json[]).map((a) => a.rs_id)).toContain('rs7903146');
      expect((await run('gwas-catalog', 'variant_associations', ['rs1'])).json.returncode).toBe(2);
    });
  });

  describe(`protocols-io${inBuild('/protocols')}`, () => {
    it.skipIf(inBuild('/protocols') !== '')('searches public protocols and reads the steps of one', async () => {
      const found = await run('protocols-io', 'search_protocols', ['gel', '--token', 'demo-client-token']);
      expect(found.json.success, found.json.stderr).toBe(true);
      const mirror = (await direct('/protocols/api/v3/protocols?filter=public&key=gel&page_size=10&page_id=1', { authorization: 'Bearer demo-client-token' })).items as Json[];
      expect((found.out.protocols as Json[]).map((p) => p.id)).toEqual(mirror.map((p) => p.id));
      expect(mirror.length).toBeGreaterThan(0);
      const steps = await run('protocols-io', 'protocol_steps', ['90001', '--token', 'demo-client-token']);
      expect(steps.json.success, steps.json.stderr).toBe(true);
      expect(steps.out.title).toBe('Phosphate-buffered saline (PBS), 1x, 1 L');
      expect(JSON.stringify(steps.out.steps)).toContain('8 g NaCl');
      const noToken = await run('protocols-io', 'search_protocols', ['gel']);
      expect(noToken.json.stderr).toContain('token is needed');
    });
  });

  describe(`rcsb-pdb${inBuild('/rcsb/data')}`, () => {
    it.skipIf(inBuild('/rcsb/data') !== '' || inBuild('/rcsb/search') !== '')('searches the PDB and summarises an entry', async () => {
      const found = await run('rcsb-pdb', 'search_structures', ['hemoglobin']);
      expect(found.json.success, found.json.stderr).toBe(true);
      expect((found.out.entries as Json[]).map((e) => e.id)).toContain('4HHB');
      const entry = await run('rcsb-pdb', 'entry_summary', ['4HHB']);
      expect(entry.json.success, entry.json.stderr).toBe(true);
      const mirror = await direct('/rcsb/data/rest/v1/core/entry/4HHB');
      expect(entry.out).toMatchObject({ id: '4HHB', title: (mirror.struct as Json).title });
      expect((entry.out.polymer_entities as Json[]).length).toBe((mirror.rcsb_entry_info as Json).polymer_entity_count);
    });
  });

  describe(`alphafold${inBuild('/alphafold')}`, () => {
    it.skipIf(inBuild('/alphafold') !== '')('reports the confidence of a model', async () => {
      const list = (await direct('/alphafold/api/prediction/P69905')) as unknown as Json[];
      const r = await run('alphafold', 'model_confidence', ['P69905']);
      expect(r.json.success, r.json.stderr).toBe(true);
      const model = (r.out.models as Json[])[0] as Json;
      expect(model.entry_id).toBe(list[0]?.entryId);
      const f = model.fractions as { very_low: number; low: number; confident: number; very_high: number };
      expect(f.very_low + f.low + f.confident + f.very_high).toBeCloseTo(1, 2);
    });
  });
});
