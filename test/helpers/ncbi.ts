/** Shared setup of the NCBI tests: an app serving E-utilities and Datasets, the demo loaded. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { runLoad, type LoadOptions, type LoadResult } from '../../src/core/ingest/load.js';
import type { Generations } from '../../src/core/store/generations.js';
import { datasets } from '../../src/services/datasets/index.js';
import { eutils } from '../../src/services/eutils/index.js';
import { clinvarDataset, geneDataset } from '../../src/services/ncbi/datasets.js';
import type { Config } from '../../src/server/config.js';
import type { LimitStore } from '../../src/core/limits/policy.js';
import { makeApp, type TestApp } from './app.js';
import type { OpenedStore } from './stores.js';

export const E = '/eutils';
export const D = '/datasets/v2alpha';
export const GENE_DEMO = geneDataset.demo as string;
export const CLINVAR_DEMO = clinvarDataset.demo as string;

export function ncbiApp(store: OpenedStore, opts: { config?: Partial<Config>; limitStore?: LimitStore } = {}): Promise<TestApp> {
  return makeApp(store, { services: [eutils, datasets], prefixed: true, ...opts });
}

export function loadGenes(store: OpenedStore, g: Generations, input = GENE_DEMO, opts: LoadOptions = {}): Promise<LoadResult> {
  return runLoad(store.db, g, geneDataset, input, opts);
}

export function loadClinvar(store: OpenedStore, g: Generations, input = CLINVAR_DEMO, opts: LoadOptions = {}): Promise<LoadResult> {
  return runLoad(store.db, g, clinvarDataset, input, opts);
}

export async function loadDemo(store: OpenedStore, g: Generations): Promise<void> {
  await loadGenes(store, g);
  await loadClinvar(store, g);
}

export async function get(app: FastifyInstance, url: string) {
  const res = await app.inject({ method: 'GET', url });
  let json: unknown;
  try {
    json = res.json();
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, body: res.body, json: json as Record<string, unknown>, headers: res.headers };
}

/** Text of every element of that name, in order (the test XML is small and regular). */
export function tags(xml: string, name: string): string[] {
  const re = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'g');
  return [...xml.matchAll(re)].map((m) => m[1] as string);
}

let dtdDir: string | undefined;

/** Where Biopython keeps the DTDs it ships (asked of Biopython itself). */
export function biopythonDtdDir(): string {
  dtdDir ??= execFileSync('/usr/bin/python3', ['-c', 'import os, Bio.Entrez as E; print(os.path.join(os.path.dirname(E.__file__), "DTDs"))'], { encoding: 'utf8' }).trim();
  return dtdDir;
}

export function biopythonDtd(name: string): string {
  return join(biopythonDtdDir(), name);
}

/**
 * A Biopython session against the mirror at `base` (argv[1]): Bio.Entrez builds NCBI's URLs, so its
 * request builder is pointed at the mirror; nothing else is changed: the DTDs it does not ship are
 * fetched from the addresses the replies name (this mirror's). Prints what it parsed as JSON, and
 * the DTDs it fetched into its cache.
 */
/** Bio.Entrez pointed at the mirror given as argv[1] (it builds NCBI's URLs; only their base is changed). */
export const BIOPYTHON_PREAMBLE = String.raw`
import io, json, os, sys, tempfile, urllib.request
import xml.etree.ElementTree as ET
from Bio import Entrez
from Bio.Entrez import Parser

base = sys.argv[1].rstrip('/')
NCBI = 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils/'
original_build = Entrez._build_request
def build(cgi, *args, **kwargs):
    return original_build(cgi.replace(NCBI, base + '/'), *args, **kwargs)
Entrez._build_request = build
Entrez.email = 'tests@example.org'
Entrez.api_key = 'test-key'
Entrez.max_tries = 1
`;

export const BIOPYTHON_SCRIPT =
  BIOPYTHON_PREAMBLE +
  String.raw`

# Bio.Entrez as installed: DTDs it does not ship are fetched from where the replies name them
# (this mirror) into its cache under $HOME, which the test points at an empty folder.

out = {}
def read(handle):
    with handle:
        return Entrez.read(handle)

r = read(Entrez.esearch(db='gene', term='BRCA1[gene] AND human[orgn]', usehistory='y'))
out['esearch_gene'] = {'Count': r['Count'], 'IdList': list(r['IdList']), 'QueryTranslation': r['QueryTranslation'], 'WebEnv': r['WebEnv'][:5], 'QueryKey': r['QueryKey'], 'TranslationSet': [dict(t) for t in r['TranslationSet']]}
s = read(Entrez.esummary(db='gene', webenv=r['WebEnv'], query_key=r['QueryKey']))
d = s['DocumentSummarySet']['DocumentSummary'][0]
out['esummary_gene_history'] = {'uid': d.attributes['uid'], 'Name': d['Name'], 'Organism': dict(d['Organism']), 'GenomicInfo': [dict(g) for g in d['GenomicInfo']], 'Mim': list(d['Mim'])}
# (An unknown UID's <error> makes Bio.Entrez raise, as it does with the real service.)
s = read(Entrez.esummary(db='gene', id='3581,4747'))
docs = s['DocumentSummarySet']['DocumentSummary']
out['esummary_gene'] = [{'uid': x.attributes['uid'], 'Name': x.get('Name'), 'error': x.get('error')} for x in docs]
f = read(Entrez.efetch(db='gene', id='4747', retmode='xml'))
g = f[0]
out['efetch_gene'] = {'locus': g['Entrezgene_gene']['Gene-ref']['Gene-ref_locus'], 'taxname': g['Entrezgene_source']['BioSource']['BioSource_org']['Org-ref']['Org-ref_taxname'], 'loci': [c['Gene-commentary_accession'] for c in g['Entrezgene_locus']]}
text = Entrez.efetch(db='gene', id='672', rettype='gene_table', retmode='text').read()
out['efetch_gene_table'] = text.splitlines()[0]
l = read(Entrez.elink(dbfrom='gene', db='pubmed', id=['672', '3077']))
out['elink_gene'] = [{'DbFrom': ls['DbFrom'], 'IdList': list(ls['IdList']), 'links': [[db['LinkName'], [x['Id'] for x in db['Link']]] for db in ls['LinkSetDb']]} for ls in l]
i = read(Entrez.einfo())
out['einfo'] = list(i['DbList'])
i = read(Entrez.einfo(db='gene'))
out['einfo_gene'] = {'DbName': i['DbInfo']['DbName'], 'Count': i['DbInfo']['Count'], 'fields': [x['Name'] for x in i['DbInfo']['FieldList']][:4], 'links': [x['Name'] for x in i['DbInfo']['LinkList']]}

r = read(Entrez.esearch(db='clinvar', term='HFE[gene] AND pathogenic[clnsig]'))
out['esearch_clinvar'] = {'Count': r['Count'], 'IdList': list(r['IdList'])}
s = read(Entrez.esummary(db='clinvar', id='9,12397', version='2.0'))
out['esummary_clinvar'] = [{'uid': x.attributes['uid'], 'accession': x['accession'], 'description': x['germline_classification']['description'], 'genes': [dict(gn) for gn in x['genes']], 'assemblies': [v['assembly_name'] for v in x['variation_set'][0]['variation_loc']]} for x in s['DocumentSummarySet']['DocumentSummary']]
l = read(Entrez.elink(dbfrom='clinvar', id='12397', linkname='clinvar_gene'))
out['elink_clinvar'] = [[db['LinkName'], [x['Id'] for x in db['Link']]] for db in l[0]['LinkSetDb']]
i = read(Entrez.einfo(db='clinvar'))
out['einfo_clinvar'] = {'DbName': i['DbInfo']['DbName'], 'Count': i['DbInfo']['Count']}
# VCV XML declares no DTD (NCBI validates it with an XSD it does not reference), so Bio.Entrez.read
# cannot read it from the real service either; clients read it with an XML parser.
with Entrez.efetch(db='clinvar', id='12397', rettype='vcv') as h:
    root = ET.fromstring(h.read())
out['efetch_clinvar'] = [va.get('Accession') for va in root.iter('VariationArchive')]
out['fetched_dtds'] = sorted(os.listdir(Parser.DataHandler.local_dtd_dir))
print(json.dumps(out))
`;
