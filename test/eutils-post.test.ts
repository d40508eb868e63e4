/**
 * epost, espell and egquery, as the real service answers them, and the sequence Biopython users
 * send long id lists with: epost, then the other utilities reading the posted list from the history.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { BIOPYTHON_PREAMBLE, E, get, loadDemo, ncbiApp, tags } from './helpers/ncbi.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { missingBiopython } from './helpers/tools.js';

const PY = '/usr/bin/python3';
const NO_BIOPYTHON = missingBiopython();

const SCRIPT =
  BIOPYTHON_PREAMBLE +
  String.raw`
out = {}
p = Entrez.read(Entrez.epost('gene', id='672,7157'))
out['epost'] = {'QueryKey': p['QueryKey'], 'WebEnv': p['WebEnv'][:5]}
s = Entrez.read(Entrez.esummary(db='gene', webenv=p['WebEnv'], query_key=p['QueryKey']))
out['esummary'] = sorted(d.attributes['uid'] for d in s['DocumentSummarySet']['DocumentSummary'])
f = Entrez.read(Entrez.efetch(db='gene', webenv=p['WebEnv'], query_key=p['QueryKey'], retmode='xml'))
out['efetch'] = sorted(g['Entrezgene_gene']['Gene-ref']['Gene-ref_locus'] for g in f)
sp = Entrez.read(Entrez.espell(db='gene', term='brca1 tumor'))
out['espell'] = {'Query': sp['Query'], 'CorrectedQuery': sp['CorrectedQuery']}
g = Entrez.read(Entrez.egquery(term='BRCA1'))
out['egquery'] = [(i['DbName'], i['Count'], i['Status']) for i in g['eGQueryResult']]
print(json.dumps(out))
`;

describe.each(STORES)('epost, espell and egquery on $name', (target) => {
  let store: OpenedStore;
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    store = await target.open();
    t = await ncbiApp(store);
    await loadDemo(store, t.generations);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('keeps posted ids under a WebEnv and query key that esummary, efetch and esearch read', async () => {
    const r = await get(t.app, `${E}/entrez/eutils/epost.fcgi?db=gene&id=672,7157,672`);
    expect(r.status).toBe(200);
    expect(r.body).toMatch(/<!DOCTYPE ePostResult PUBLIC "-\/\/NLM\/\/DTD epost 20090526\/\/EN"/);
    const [key] = tags(r.body, 'QueryKey');
    const [webenv] = tags(r.body, 'WebEnv');
    expect(key).toBe('1');
    expect(webenv).toMatch(/^MCID_/);
    const s = await get(t.app, `${E}/entrez/eutils/esummary.fcgi?db=gene&WebEnv=${webenv}&query_key=${key}&retmode=json`);
    expect([...(s.json as { result: { uids: string[] } }).result.uids].sort()).toEqual(['672', '7157']);
    // A second post to the same WebEnv gets the next key; searches can combine them.
    const again = await get(t.app, `${E}/entrez/eutils/epost.fcgi?db=gene&id=3581&WebEnv=${webenv}`);
    expect(tags(again.body, 'QueryKey')).toEqual(['2']);
    const both = await get(t.app, `${E}/entrez/eutils/esearch.fcgi?db=gene&term=%231+OR+%232&WebEnv=${webenv}&retmode=json`);
    expect([...(both.json as { esearchresult: { idlist: string[] } }).esearchresult.idlist].sort()).toEqual(['3581', '672', '7157']);
  });

  it('lists ids that are not UIDs as invalid, and refuses an empty list', async () => {
    const r = await get(t.app, `${E}/entrez/eutils/epost.fcgi?db=gene&id=672,abc`);
    expect(tags(r.body, 'Id')).toEqual(['abc']);
    expect(tags(r.body, 'QueryKey')).toEqual(['1']);
    const none = await get(t.app, `${E}/entrez/eutils/epost.fcgi?db=gene`);
    expect(tags(none.body, 'ERROR')).toEqual(['Empty id list - nothing todo']);
    const bad = await get(t.app, `${E}/entrez/eutils/epost.fcgi?db=nothing&id=1`);
    expect(bad.body).toMatch(/<ERROR>/);
  });

  it('answers espell with the query as given, and egquery with counts per database', async () => {
    const sp = await get(t.app, `${E}/entrez/eutils/espell.fcgi?db=gene&term=brca1`);
    expect(tags(sp.body, 'CorrectedQuery')).toEqual(['brca1']);
    const g = await get(t.app, `${E}/entrez/eutils/egquery.fcgi?term=BRCA1`);
    expect(tags(g.body, 'DbName')).toEqual(['gene', 'clinvar']);
    expect(Number(tags(g.body, 'Count')[0])).toBeGreaterThan(0);
  });

  it.skipIf(!!NO_BIOPYTHON)(`is read by an unmodified Biopython offline${NO_BIOPYTHON}`, async () => {
    const script = join(tempDir(), 'post.py');
    writeFileSync(script, SCRIPT);
    const env = { ...process.env, HOME: tempDir(), http_proxy: 'http://127.0.0.1:9', https_proxy: 'http://127.0.0.1:9', no_proxy: '127.0.0.1,localhost' };
    const { stdout } = await promisify(execFile)(PY, [script, `${base}${E}`], { encoding: 'utf8', timeout: 25_000, env });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out.epost).toEqual({ QueryKey: '1', WebEnv: 'MCID_' });
    expect(out.esummary).toEqual(['672', '7157']);
    expect(out.efetch).toEqual(['BRCA1', 'TP53']);
    expect(out.espell).toEqual({ Query: 'brca1 tumor', CorrectedQuery: 'brca1 tumor' });
    expect(out.egquery).toEqual([
      ['gene', expect.stringMatching(/^[1-9]\d*$/), 'Ok'],
      ['clinvar', expect.stringMatching(/^\d+$/), 'Ok'],
    ]);
  });
});
