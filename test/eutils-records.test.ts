import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { at, parseAsn, type AsnValue } from './helpers/asn1.js';
import { E, get, loadDemo, ncbiApp, tags } from './helpers/ncbi.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

type Docs = { header: unknown; result: Record<string, Record<string, unknown>> & { uids: string[] } };

for (const target of STORES) {
  describe(`esummary and efetch on ${target.name}`, () => {
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

    it('writes gene docsums in the order of the official DTD', async () => {
      const r = await get(t.app, `${E}/esummary.fcgi?db=gene&id=3581`);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/xml; charset=UTF-8');
      expect(r.body).toContain('<!DOCTYPE eSummaryResult PUBLIC "-//NLM//DTD esummary gene');
      expect(r.body).toContain('<DocumentSummarySet status="OK">');
      const doc = tags(r.body, 'DocumentSummary')[0] as string;
      const order = [...doc.matchAll(/^<([A-Za-z]+)>/gm)].map((m) => m[1]);
      expect(order).toEqual([
        'Name',
        'Description',
        'Status',
        'CurrentID',
        'Chromosome',
        'GeneticSource',
        'MapLocation',
        'OtherAliases',
        'OtherDesignations',
        'NomenclatureSymbol',
        'NomenclatureName',
        'NomenclatureStatus',
        'Mim',
        'int',
        'GenomicInfo',
        'GenomicInfoType',
        'ChrLoc',
        'ChrAccVer',
        'ChrStart',
        'ChrStop',
        'GenomicInfoType',
        'ChrLoc',
        'ChrAccVer',
        'ChrStart',
        'ChrStop',
        'GeneWeight',
        'Summary',
        'ChrSort',
        'ChrStart',
        'Organism',
        'ScientificName',
        'CommonName',
        'TaxID',
        'LocationHist',
      ]);
      expect(tags(doc, 'Chromosome')).toEqual(['X, Y']);
      expect(tags(doc, 'OtherAliases')).toEqual(['CD129, IL-9R']);
      expect(tags(doc, 'ChrAccVer')).toEqual(['NC_000023.11', 'NC_000024.10']);
      expect(tags(doc, 'ChrStart')).toEqual(['155997580', '57184100', '155997580']);
    });

    it('writes JSON docsums: uids first, lower-case names, numbers where the DTD says so', async () => {
      const r = await get(t.app, `${E}/esummary.fcgi?db=gene&id=672,7157&retmode=json`);
      expect(r.body.startsWith('{"header":{"type":"esummary","version":"0.3"},"result":{"uids":["672","7157"],"672":')).toBe(true);
      const j = r.json as Docs;
      const brca1 = j.result['672'] as Record<string, unknown>;
      expect(brca1).toMatchObject({
        uid: '672',
        name: 'BRCA1',
        description: 'BRCA1 DNA repair associated',
        chromosome: '17',
        geneticsource: 'genomic',
        maplocation: '17q21.31',
        nomenclaturesymbol: 'BRCA1',
        nomenclaturename: 'BRCA1 DNA repair associated',
        nomenclaturestatus: 'Official',
        status: 0,
        currentid: 0,
        mim: ['113705'],
        chrsort: '17',
        organism: { scientificname: 'Homo sapiens', commonname: 'human', taxid: 9606 },
      });
      // Minus-strand genes start at their upstream (higher) end.
      expect(brca1.genomicinfo).toEqual([{ chrloc: '17', chraccver: 'NC_000017.11', chrstart: 43125482, chrstop: 43044294 }]);
      expect(brca1.geneweight).toBe(3);
    });

    it('answers unknown and malformed UIDs as the real service does', async () => {
      const r = await get(t.app, `${E}/esummary.fcgi?db=gene&id=672,99999999&retmode=json`);
      expect((r.json as Docs).result['99999999']).toEqual({ uid: '99999999', error: 'cannot get document summary' });
      const x = await get(t.app, `${E}/esummary.fcgi?db=gene&id=99999999`);
      expect(x.body).toContain('<DocumentSummary uid="99999999">\n<error>cannot get document summary</error>\n</DocumentSummary>');
      const bad = await get(t.app, `${E}/esummary.fcgi?db=gene&id=672,abc`);
      expect(bad.status).toBe(200);
      expect(tags(bad.body, 'ERROR')).toEqual(['Invalid uid abc at position=1']);
      const empty = await get(t.app, `${E}/esummary.fcgi?db=gene&id=&retmode=json`);
      expect(empty.json).toEqual({ header: { type: 'esummary', version: '0.3' }, error: 'Empty id list - nothing todo', esummaryresult: ['Empty id list - nothing todo'] });
      const none = await get(t.app, `${E}/esummary.fcgi?db=gene`);
      expect(none.body).toContain('<!DOCTYPE eSummaryResult PUBLIC "-//NLM//DTD esummary v1 20041029//EN"');
      expect(tags(none.body, 'ERROR')).toEqual(['Neither query_key nor id specified']);
      const many = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
      const tooMany = await get(t.app, `${E}/esummary.fcgi?db=gene&id=${many}&retmode=json`);
      expect(tooMany.json.error).toBe('Too many UIDs in request. Maximum number of UIDs is 500 for JSON format output.');
      const xml500 = await get(t.app, `${E}/esummary.fcgi?db=gene&id=${many}`);
      expect(tags(xml500.body, 'DocumentSummary').length).toBe(501);
      const version = await get(t.app, `${E}/esummary.fcgi?db=gene&id=672&version=3.0`);
      expect(version.status).toBe(400);
      expect(tags(version.body, 'ERROR')[0]).toContain('"3.0"');
    });

    it('writes ClinVar docsums (version 2.0) with locations on both assemblies', async () => {
      const r = await get(t.app, `${E}/esummary.fcgi?db=clinvar&id=9&retmode=json&version=2.0`);
      const d = (r.json as Docs).result['9'] as Record<string, unknown>;
      expect(d).toMatchObject({
        uid: '9',
        obj_type: 'single nucleotide variant',
        accession: 'VCV000000009',
        title: 'NM_000410.4(HFE):c.845G>A (p.Cys282Tyr)',
        protein_change: 'C282Y',
        gene_sort: 'HFE',
        chr_sort: '06',
        genes: [{ symbol: 'HFE', geneid: '3077', strand: '', source: '' }],
      });
      const g = d.germline_classification as Record<string, unknown>;
      expect(g).toMatchObject({
        description: 'Pathogenic/Pathogenic, low penetrance; risk factor',
        last_evaluated: '2026/02/13 00:00',
        review_status: 'criteria provided, multiple submitters, no conflicts',
      });
      expect((g.trait_set as { trait_name: string }[])[0]).toEqual({
        trait_xrefs: [
          { db_source: 'MONDO', db_id: 'MONDO:0021001' },
          { db_source: 'MedGen', db_id: 'C3469186' },
          { db_source: 'OMIM', db_id: '235200' },
          { db_source: 'Orphanet', db_id: '465508' },
        ],
        trait_name: 'Hemochromatosis type 1',
      });
      const v = (d.variation_set as Record<string, unknown>[])[0] as Record<string, unknown>;
      expect(v).toMatchObject({ measure_id: '15048', cdna_change: 'c.845G>A', canonical_spdi: 'NC_000006.12:26092912:G:A', variant_type: 'single nucleotide variant' });
      expect((v.variation_loc as Record<string, string>[]).map((l) => [l.assembly_name, l.status, l.start, l.assembly_acc_ver])).toEqual([
        ['GRCh38', 'current', '26092913', 'GCF_000001405.38'],
        ['GRCh37', 'previous', '26093141', 'GCF_000001405.25'],
      ]);
      expect((d.supporting_submissions as { rcv: string[] }).rcv[0]).toBe('RCV000000019');
      // A record loaded from the VCV release adds its version, gene strand and consequences.
      const tsc2 = ((await get(t.app, `${E}/esummary.fcgi?db=clinvar&id=12397&retmode=json`)).json as Docs).result['12397'] as Record<string, unknown>;
      expect(tsc2).toMatchObject({
        accession_version: 'VCV000012397.1',
        molecular_consequence_list: ['missense variant'],
        genes: [{ symbol: 'TSC2', geneid: '7249', strand: '+', source: 'submitted' }],
      });
      const xml = await get(t.app, `${E}/esummary.fcgi?db=clinvar&id=9,12397&version=2.0`);
      expect(xml.body).toContain('<!DOCTYPE eSummaryResult PUBLIC "-//NLM//DTD esummary clinvar');
      expect(tags(xml.body, 'accession')).toEqual(['VCV000000009', 'VCV000012397']);
    });

    it('efetch writes gene records as Entrezgene XML', async () => {
      const r = await get(t.app, `${E}/efetch.fcgi?db=gene&id=4747`);
      expect(r.headers['content-type']).toBe('text/xml; charset=UTF-8');
      expect(r.body.split('\n').slice(0, 3)).toEqual([
        '<?xml version="1.0" ?>',
        '<!DOCTYPE Entrezgene-Set PUBLIC "-//NLM//DTD NCBI-Entrezgene, 21st January 2005//EN" "http://localhost:80/eutils/data_specs/dtd/NCBI_Entrezgene.dtd">',
        '<Entrezgene-Set>',
      ]);
      expect(tags(r.body, 'Gene-track_geneid')).toEqual(['4747']);
      expect(tags(r.body, 'Gene-ref_locus')).toEqual(['NEFL']);
      expect(tags(r.body, 'Gene-ref_syn_E')).toEqual(['NFL', 'NF-L', 'NF68', 'CMT1F', 'CMT2E', 'CMTDIG', 'PPP1R110']);
      expect(tags(r.body, 'Seq-interval_from')).toEqual(['24950954']);
      expect(tags(r.body, 'Seq-id_gi')).toEqual(['568815590', '1780222518', '105990539']);
      expect(tags(r.body, 'Gene-commentary_accession')).toEqual(['NC_000008', 'NM_006158', 'NP_006149']);
      expect(tags(r.body, 'Other-source_anchor')).toEqual(['HUGO Gene Nomenclature Committee', 'protein binding', 'identical protein binding', 'phospholipase binding']);
      expect(tags(r.body, 'PubMedId')).toContain('38347655');
      expect(r.body).toContain('<Gene-commentary_text>neurofilament light chain</Gene-commentary_text>');
    });

    it('efetch writes summary text, gene tables and docsums', async () => {
      const text = await get(t.app, `${E}/efetch.fcgi?db=gene&id=672&retmode=text`);
      expect(text.headers['content-type']).toBe('text/plain; charset=UTF-8');
      expect(text.body).toBe(
        [
          '1. BRCA1',
          'Official Symbol: BRCA1 and Name: BRCA1 DNA repair associated [Homo sapiens (human)]',
          'Other Aliases: RNF53, BRCC1',
          'Chromosome: 17; Location: 17q21.31',
          'Annotation: Chromosome 17 NC_000017.11 (43044295..43125483, complement)',
          'MIM: 113705',
          'ID: 672',
          '',
        ].join('\n'),
      );
      const table = await get(t.app, `${E}/efetch.fcgi?db=gene&id=3845&rettype=gene_table&retmode=text`);
      expect(table.body).toContain(
        'KRAS KRAS proto-oncogene, GTPase [Homo sapiens]\nGene ID: 3845, updated on 01-Nov-2025\n\nReference GRCh38.p14 Primary Assembly NC_000012.12 from: 25205246 to: 25250936',
      );
      expect(table.body).toContain('mRNA NM_004985.5\nprotein NP_004976.2\n\nmRNA NM_033360.4\nprotein NP_203524.1');
      const docsum = await get(t.app, `${E}/efetch.fcgi?db=gene&id=672&rettype=docsum&retmode=json`);
      expect((docsum.json as Docs).result.uids).toEqual(['672']);
      const docsumXml = await get(t.app, `${E}/efetch.fcgi?db=gene&id=672&rettype=docsum`);
      expect(tags(docsumXml.body, 'Name')).toEqual(['BRCA1']);
    });

    it('efetch writes the UIDs found with rettype=uilist, as text by default and as an IdList in XML, for both databases', async () => {
      const text = await get(t.app, `${E}/efetch.fcgi?db=gene&id=7157,672,999999999&rettype=uilist`);
      expect(text.status).toBe(200);
      expect(text.body).toBe('7157\n672\n');
      const xml = await get(t.app, `${E}/efetch.fcgi?db=gene&id=672&rettype=uilist&retmode=xml`);
      expect(xml.body).toContain('<!DOCTYPE eSearchResult');
      expect(tags(xml.body, 'Id')).toEqual(['672']);
      const clinvar = await get(t.app, `${E}/efetch.fcgi?db=clinvar&id=9&rettype=uilist`);
      expect(clinvar.body).toBe('9\n');
    });

    it('efetch writes ClinVar VCV and RCV records', async () => {
      const loaded = await get(t.app, `${E}/efetch.fcgi?db=clinvar&id=12397&rettype=vcv&is_variationid=true`);
      expect(loaded.body.startsWith('<?xml version="1.0" encoding="UTF-8" ?>\n')).toBe(true);
      expect(loaded.body).toContain('<ClinVarResult-Set><VariationArchive RecordType="classified" VariationID="12397"');
      expect(loaded.body).toContain('<MolecularConsequence ID="SO:0001583" Type="missense variant" DB="SO"/>');
      const built = await get(t.app, `${E}/efetch.fcgi?db=clinvar&id=9`);
      expect(built.body).toContain('<VariationArchive RecordType="classified" VariationID="9" VariationName="NM_000410.4(HFE):c.845G&gt;A (p.Cys282Tyr)"');
      expect(built.body).toContain('<SequenceLocation Assembly="GRCh38" AssemblyAccessionVersion="GCF_000001405.38" AssemblyStatus="current" Chr="6" Accession="NC_000006.12" start="26092913"');
      expect(tags(built.body, 'ProteinChange')).toEqual(['C282Y']);
      expect(tags(built.body, 'Description')).toEqual(['Pathogenic/Pathogenic, low penetrance; risk factor']);
      const rcv = await get(t.app, `${E}/efetch.fcgi?db=clinvar&id=9&rettype=rcv`);
      expect(tags(rcv.body, 'ClinVarSet').length).toBe(13);
      expect(rcv.body).toContain('<ClinVarAccession Acc="RCV000000019" Type="RCV"/>');
      expect(tags(rcv.body, 'Title')[0]).toBe('NM_000410.4(HFE):c.845G&gt;A (p.Cys282Tyr) AND Hemochromatosis type 1');
    });

    it('efetch writes gene records as ASN.1 value notation that reads back to the XML record', async () => {
      const r = await get(t.app, `${E}/efetch.fcgi?db=gene&id=672,4747&retmode=asn.1`);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
      expect(r.body.startsWith('Entrezgene ::= {\n  track-info {\n    geneid 672,\n    status live,\n')).toBe(true);
      const records = parseAsn(r.body);
      expect(records.map((x) => x.type)).toEqual(['Entrezgene', 'Entrezgene']);
      const brca1 = records[0]?.value;
      expect(at(brca1, 'track-info', 'geneid')).toBe(672);
      expect(at(brca1, 'type')).toBe('#protein-coding');
      expect(at(brca1, 'source', 'org')).toMatchObject({ taxname: 'Homo sapiens', common: 'human', db: [{ db: 'taxon', tag: { id: 9606 } }] });
      expect(at(brca1, 'gene')).toMatchObject({ locus: 'BRCA1', desc: 'BRCA1 DNA repair associated', maploc: '17q21.31' });
      expect(at(brca1, 'gene', 'db')).toContainEqual({ db: 'HGNC', tag: { str: 'HGNC:1100' } });
      expect(at(brca1, 'location')).toEqual([{ 'display-str': '17q21.31', method: { 'map-type': '#cyto' } }]);
      // The same placement and products as the XML record.
      const xml = (await get(t.app, `${E}/efetch.fcgi?db=gene&id=672`)).body;
      const locus = at(brca1, 'locus', 0);
      expect(at(locus, 'type')).toBe('#genomic');
      // One CHOICE item in a list reads back as a one-member object.
      expect(at(locus, 'seqs', 'int')).toMatchObject({ from: Number(tags(xml, 'Seq-interval_from')[0]), to: Number(tags(xml, 'Seq-interval_to')[0]), strand: '#minus' });
      const products = at(locus, 'products') as AsnValue[];
      const mrnas = products.map((p) => `${String(at(p, 'accession'))}.${String(at(p, 'version'))}`);
      expect(mrnas.length).toBeGreaterThan(0);
      expect(mrnas[0]).toBe('NM_007294.4');
      expect(at(brca1, 'xtra-index-terms')).toEqual(['LOC672']);
      expect(at(records[1]?.value, 'gene', 'locus')).toBe('NEFL');
      // Ids that find nothing get the real efetch error, as in the other modes.
      const none = await get(t.app, `${E}/efetch.fcgi?db=gene&id=99999999,abc&retmode=asn.1`);
      expect(none.status).toBe(200);
      expect(tags(none.body, 'ERROR')).toEqual(['ID list is empty! Possibly it has no correct IDs.']);
    });

    it('efetch answers what it cannot write with the real messages', async () => {
      const none = await get(t.app, `${E}/efetch.fcgi?db=gene&id=99999999`);
      expect(none.status).toBe(200);
      expect(none.body).toContain('<!DOCTYPE eEfetchResult PUBLIC "-//NLM//DTD efetch 20131226//EN"');
      expect(tags(none.body, 'ERROR')).toEqual(['ID list is empty! Possibly it has no correct IDs.']);
      expect(tags((await get(t.app, `${E}/efetch.fcgi?db=gene&id=`)).body, 'ERROR')).toEqual(['Empty id list - nothing todo']);
      const asn = await get(t.app, `${E}/efetch.fcgi?db=clinvar&id=9&retmode=asn.1`);
      expect(asn.status).toBe(400);
      expect(tags(asn.body, 'ERROR')[0]).toMatch(/^retmode=asn\.1 is not served for db=clinvar; this mirror writes retmode=xml/);
      const bad = await get(t.app, `${E}/efetch.fcgi?db=clinvar&id=9&rettype=fasta`);
      expect(bad.status).toBe(400);
      expect(tags(bad.body, 'ERROR')[0]).toContain('rettype=vcv retmode=xml');
    });
  });
}
