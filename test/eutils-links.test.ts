import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { E, get, loadDemo, ncbiApp, tags } from './helpers/ncbi.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

type LinkJson = { linksets: { dbfrom: string; ids: string[]; linksetdbs?: { dbto: string; linkname: string; links: string[] }[] }[] };
type SearchJson = { esearchresult: Record<string, string | string[]> };

for (const target of STORES) {
  describe(`elink, einfo and the history on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeAll(async () => {
      s = await target.open();
      t = await ncbiApp(s);
      await loadDemo(s, t.generations);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    const links = async (qs: string) => {
      const r = await get(t.app, `${E}/elink.fcgi?${qs}&retmode=json`);
      expect(r.status, qs).toBe(200);
      return r.json as unknown as LinkJson;
    };
    const byName = (j: LinkJson, i = 0) => Object.fromEntries((j.linksets[i]?.linksetdbs ?? []).map((d) => [d.linkname, d.links]));

    it('links genes to PubMed, Nucleotide, Protein, neighbouring genes, ClinVar and Taxonomy', async () => {
      const all = byName(await links('dbfrom=gene&id=4747'));
      expect(Object.keys(all)).toEqual(['gene_pubmed', 'gene_nuccore', 'gene_nuccore_refseqrna', 'gene_protein', 'gene_protein_refseq', 'gene_taxonomy']);
      expect(all.gene_pubmed).toEqual(['38347655', '38339819', '38017278', '38007650', '37923059', '12432080', '12226091']);
      expect(all.gene_nuccore).toEqual(['1780222518', '568815590', '205361202']);
      expect(all.gene_protein).toEqual(['105990539']);
      expect(all.gene_taxonomy).toEqual(['9606']);
      // Without a GI in gene2refseq, the accession.version stands for the sequence.
      expect(byName(await links('dbfrom=gene&db=protein&id=3845')).gene_protein).toEqual(['NP_004976.2', 'NP_203524.1']);
      expect(byName(await links('dbfrom=gene&db=clinvar&id=3077')).gene_clinvar).toEqual(['14', '13', '12', '11', '10', '9']);
      expect(byName(await links('dbfrom=gene&db=gene&id=672')).gene_gene_neighbors).toEqual(['7157']);
      const pub = await links('dbfrom=gene&db=pubmed&id=1080&linkname=gene_pubmed');
      expect(pub.linksets[0]).toEqual({ dbfrom: 'gene', ids: ['1080'], linksetdbs: [{ dbto: 'pubmed', linkname: 'gene_pubmed', links: ['2772657', '2570460', '2475911'] }] });
    });

    it('links ClinVar records to PubMed, Gene, MedGen and dbSNP', async () => {
      const all = byName(await links('dbfrom=clinvar&id=12397'));
      expect(all.clinvar_pubmed?.slice(0, 3)).toEqual(['26703369', '22867869', '21309039']);
      expect(all.clinvar_pubmed?.length).toBe(17);
      expect(all.clinvar_gene).toEqual(['7249']);
      expect(all.clinvar_medgen).toEqual(['C1860707', 'C0041341', 'C0751674', 'CN517202', 'C0027672']);
      expect(all.clinvar_snp).toEqual(['28934872']);
      const pubmed = await links('dbfrom=clinvar&db=pubmed&id=9');
      expect(pubmed.linksets[0]).toEqual({ dbfrom: 'clinvar', ids: ['9'] });
    });

    it('gives each repeated id its own LinkSet and merges comma-separated ids', async () => {
      const sep = await links('dbfrom=gene&db=pubmed&id=672&id=3077');
      expect(sep.linksets.map((l) => [l.ids, byName({ linksets: [l] }).gene_pubmed])).toEqual([
        [['672'], ['7545954']],
        [['3077'], ['8696333']],
      ]);
      const merged = await links('dbfrom=gene&db=pubmed&id=672,3077');
      expect(merged.linksets).toEqual([{ dbfrom: 'gene', ids: ['672', '3077'], linksetdbs: [{ dbto: 'pubmed', linkname: 'gene_pubmed', links: ['7545954', '8696333'] }] }]);
      const xml = await get(t.app, `${E}/elink.fcgi?dbfrom=gene&db=pubmed&id=672`);
      expect(xml.body).toContain('<!DOCTYPE eLinkResult PUBLIC "-//NLM//DTD elink 20101123//EN"');
      expect(tags(xml.body, 'LinkName')).toEqual(['gene_pubmed']);
      expect(tags(xml.body, 'Id')).toEqual(['672', '7545954']);
    });

    it('answers elink mistakes in its envelope', async () => {
      const none = await get(t.app, `${E}/elink.fcgi?dbfrom=gene&db=structure&id=672`);
      expect(tags(none.body, 'ERROR')[0]).toMatch(/^No links from db=gene for db=structure; this mirror links gene_pubmed \(db=pubmed\)/);
      const cmd = await get(t.app, `${E}/elink.fcgi?dbfrom=gene&id=672&cmd=llinks`);
      expect(cmd.status).toBe(400);
      expect(tags(cmd.body, 'ERROR')).toEqual(['Invalid cmd "llinks": this mirror answers cmd=neighbor']);
      expect(tags((await get(t.app, `${E}/elink.fcgi?dbfrom=gene&id=x1`)).body, 'ERROR')).toEqual(['Invalid uid x1']);
      expect(tags((await get(t.app, `${E}/elink.fcgi?dbfrom=gene`)).body, 'ERROR')).toEqual(['Neither query_key nor id specified']);
      expect(tags((await get(t.app, `${E}/elink.fcgi?dbfrom=pubmed&id=1`)).body, 'ERROR')[0]).toMatch(/^Invalid dbfrom name specified: pubmed/);
    });

    it('answers utilities it does not serve with 404 and a JSON error', async () => {
      const r = await get(t.app, `${E}/ecitmatch.cgi?db=pubmed`);
      expect(r.status).toBe(404);
      expect(r.json.error).toMatch(/^No such E-utility: GET \/eutils\/ecitmatch\.cgi; the utilities are esearch\.fcgi/);
      const post = await t.app.inject({ method: 'POST', url: `${E}/esummary.fcgi`, payload: 'db=gene&id=672,7157&retmode=json', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect((post.json() as { result: { uids: string[] } }).result.uids).toEqual(['672', '7157']);
      expect(post.headers['access-control-allow-origin']).toBe('*');
    });

    it('einfo lists the databases and describes each', async () => {
      const list = await get(t.app, `${E}/einfo.fcgi`);
      expect(tags(list.body, 'DbName')).toEqual(['gene', 'clinvar']);
      expect((await get(t.app, `${E}/einfo.fcgi?retmode=json`)).json).toEqual({ header: { type: 'einfo', version: '0.3' }, einforesult: { dblist: ['gene', 'clinvar'] } });
      const gene = await get(t.app, `${E}/einfo.fcgi?db=gene&retmode=json`);
      const info = (gene.json as { einforesult: { dbinfo: Record<string, unknown>[] } }).einforesult.dbinfo[0] as Record<string, unknown>;
      expect(info).toMatchObject({ dbname: 'gene', menuname: 'Gene', count: '359' });
      expect(info.lastupdate).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
      expect(info.dbbuild).toMatch(/^Build\d{6}-\d{4}\.\d+$/);
      const fields = info.fieldlist as Record<string, string>[];
      expect(fields.map((f) => f.name)).toContain('ORGN');
      expect(fields.find((f) => f.name === 'GENE')).toMatchObject({ fullname: 'Gene Name', isnumerical: 'N', singletoken: 'Y' });
      expect(Number(fields.find((f) => f.name === 'GENE')?.termcount)).toBeGreaterThan(359);
      expect((info.linklist as { name: string }[]).map((l) => l.name)).toContain('gene_clinvar');
      const cv = await get(t.app, `${E}/einfo.fcgi?db=clinvar&version=2.0`);
      expect(tags(cv.body, 'Count')).toEqual(['15']);
      expect(tags(cv.body, 'IsTruncatable').length).toBeGreaterThan(0);
      expect(tags((await get(t.app, `${E}/einfo.fcgi?db=fleegle`)).body, 'ERROR')[0]).toMatch(/^Can not retrieve DbInfo for db=fleegle/);
    });

    it('keeps searches on the history server and reads them back', async () => {
      const first = (await get(t.app, `${E}/esearch.fcgi?db=gene&term=human[orgn]&usehistory=y&retmode=json`)).json as unknown as SearchJson;
      const webenv = first.esearchresult.webenv as string;
      expect(webenv).toMatch(/^MCID_[0-9a-f]{24}$/);
      expect(first.esearchresult.querykey).toBe('1');
      // A second search in the same WebEnv gets the next key and may refer to the first.
      const second = (await get(t.app, `${E}/esearch.fcgi?db=gene&term=${encodeURIComponent('#1 AND BRCA1[gene]')}&WebEnv=${webenv}&usehistory=y&retmode=json`)).json as unknown as SearchJson;
      expect(second.esearchresult).toMatchObject({ querykey: '2', webenv, count: '1', idlist: ['672'] });
      expect(second.esearchresult.querytranslation).toBe('"Homo sapiens"[Organism] AND BRCA1[Gene Name]');
      const sum = await get(t.app, `${E}/esummary.fcgi?db=gene&query_key=1&WebEnv=${webenv}&retstart=1&retmax=2&retmode=json`);
      expect((sum.json as { result: { uids: string[] } }).result.uids).toEqual(first.esearchresult.idlist?.slice(1, 3));
      const fetched = await get(t.app, `${E}/efetch.fcgi?db=gene&query_key=2&WebEnv=${webenv}&retmode=text`);
      expect(fetched.body.startsWith('1. BRCA1\n')).toBe(true);
      const linked = await get(t.app, `${E}/elink.fcgi?dbfrom=gene&db=pubmed&query_key=2&WebEnv=${webenv}&retmode=json`);
      expect((linked.json as unknown as LinkJson).linksets[0]?.linksetdbs?.[0]?.links).toEqual(['7545954']);
      const again = (await get(t.app, `${E}/esearch.fcgi?db=gene&query_key=2&WebEnv=${webenv}&retmode=json`)).json as unknown as SearchJson;
      expect(again.esearchresult.idlist).toEqual(['672']);
    });

    it('is shared by every process on the database, and expires', async () => {
      const other = await ncbiApp(s);
      try {
        const r = (await get(t.app, `${E}/esearch.fcgi?db=clinvar&term=HFE[gene]&usehistory=y&retmode=json`)).json as unknown as SearchJson;
        const webenv = r.esearchresult.webenv as string;
        const there = await get(other.app, `${E}/esummary.fcgi?db=clinvar&query_key=1&WebEnv=${webenv}&retmode=json`);
        expect((there.json as { result: { uids: string[] } }).result.uids).toEqual(['14', '13', '12', '11', '10', '9']);
        // Wrong database, unknown key, unknown WebEnv: the real message.
        expect(tags((await get(other.app, `${E}/esummary.fcgi?db=gene&query_key=1&WebEnv=${webenv}`)).body, 'ERROR')).toEqual(['Unable to obtain query #1']);
        expect(tags((await get(other.app, `${E}/efetch.fcgi?db=clinvar&query_key=7&WebEnv=${webenv}`)).body, 'ERROR')).toEqual(['Unable to obtain query #7']);
        expect(tags((await get(other.app, `${E}/esearch.fcgi?db=clinvar&term=%233&WebEnv=${webenv}`)).body, 'ERROR')).toEqual(['Unable to obtain query #3']);
        // Eight hours without use and it is gone.
        await s.db.run('UPDATE eutils_history SET used_at = ? WHERE webenv = ?', [Date.now() - 8 * 3600_000 - 1000, webenv]);
        expect(tags((await get(other.app, `${E}/esummary.fcgi?db=clinvar&query_key=1&WebEnv=${webenv}`)).body, 'ERROR')).toEqual(['Unable to obtain query #1']);
      } finally {
        await other.close();
      }
    });
  });
}
