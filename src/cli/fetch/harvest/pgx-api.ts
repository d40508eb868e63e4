/**
 * What PharmGKB (ClinPGx) serves only through its API, harvested into files the pgx load reads
 * beside the downloads: the members its downloads lack (ingest/details.ts of the service), CPIC's
 * allele tables per gene and CPIC's gene–drug pair list. The API's lists are asked whole (six
 * requests); then the alleles of each gene that has a CPIC level or a guideline, and the labels of
 * each drug that a regulator's label pairs with a gene, one request each at the API's pace of two
 * a second.
 *
 * Every answer is saved as it arrives, so an interrupted harvest resumes where it stopped. A later
 * harvest asks the lists again and, gene by gene and drug by drug, only for those it has not asked
 * before; removing the `api` folder of the download cache asks for everything again.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FetchError } from '../errors.js';
import type { Http } from '../http.js';
import { upstreamUrl, type Upstreams } from '../upstreams.js';
import { readState, writeAtomic, writeState } from './state.js';

export interface ApiHarvestContext {
  /** The dataset's download folder; answers are kept in its `api` folder. */
  dir: string;
  http: Http;
  upstreams: Upstreams;
  note(line: string): void;
}

type Json = Record<string, unknown>;

const LISTS = ['gene', 'chemical', 'variant', 'guideline', 'pathway', 'geneDrugPair'] as const;
type ListName = (typeof LISTS)[number];
/** The bodies whose labels a pair's sources name (the others are guideline sources). */
const LABEL_SOURCES = new Set(['FDA', 'EMA', 'PMDA', 'Health Canada', 'HCSC', 'Swissmedic']);

const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
/** A cell of a tab-separated table: no tabs or line breaks inside. */
const cell = (v: unknown): string => (v === null || v === undefined ? '' : String(v)).replace(/[\t\r\n]+/g, ' ').trim();

/** A list answer: the documented bare array, or the same in the API's `{"data": [...]}` envelope. */
function listOf(url: string, body: unknown): Json[] {
  const items = Array.isArray(body) ? body : obj(body).data;
  if (!Array.isArray(items)) throw new FetchError(`${url}: not a list of resources`);
  return items.map(obj);
}

interface State {
  /** The last harvest finished: the next one asks the lists again. */
  complete?: boolean;
}

class Answers {
  constructor(
    private readonly ctx: ApiHarvestContext,
    private readonly store: string,
  ) {}

  asked = 0;

  /**
   * The saved answer to `path`, or the upstream's (saved now). With `unknownIsEmpty` (a gene's
   * alleles, a drug's labels) a 404 is an empty list; a whole list answering 404 means the
   * upstream does not serve these paths, and the harvest stops.
   */
  async list(file: string, path: string, unknownIsEmpty = false): Promise<Json[]> {
    const at = join(this.store, file);
    const url = upstreamUrl(this.ctx.upstreams, 'clinpgx', path);
    if (existsSync(at)) return listOf(url, JSON.parse(await readFile(at, 'utf8')));
    let body: unknown;
    try {
      body = await this.ctx.http.json(url);
    } catch (err) {
      if (!(unknownIsEmpty && err instanceof FetchError && /answered 404/.test(err.message))) throw err;
      body = [];
    }
    const items = listOf(url, body);
    this.asked++;
    await writeAtomic(at, JSON.stringify(items));
    return items;
  }
}

/** One entry of the details document (see the service's ingest/details.ts). */
interface Detail {
  type: string;
  key: string;
  field: string;
  value: unknown;
}

function details(lists: Record<ListName, Json[]>, labels: Json[]): Detail[] {
  const out: Detail[] = [];
  const give = (type: string, key: string, field: string, value: unknown) => {
    const empty = value === '' || value === undefined || value === null || (Array.isArray(value) && !value.length) || (typeof value === 'object' && !Object.keys(value).length);
    // Only what the API has: an empty member must not blank what a file gave.
    if (key && !empty) out.push({ type, key, field, value });
  };
  for (const g of lists.gene) for (const f of ['chromosomeLocation', 'function', 'description']) give('gene', str(g.id), f, str(g[f]));
  for (const c of lists.chemical) {
    give('chemical', str(c.id), 'drugClasses', strs(c.drugClasses));
    give('chemical', str(c.id), 'indication', str(c.indication));
  }
  for (const v of lists.variant) {
    give('variant', str(v.rsid), 'consequence', str(v.consequence));
    give('variant', str(v.rsid), 'clinicalSignificance', str(v.clinicalSignificance));
    const freq = Object.fromEntries(Object.entries(obj(v.frequencies)).filter(([, n]) => typeof n === 'number'));
    give('variant', str(v.rsid), 'frequencies', freq);
  }
  for (const l of labels) {
    const s = obj(l.sections);
    if (Object.keys(s).length) give('label', str(l.id), 'sections', { testing: str(s.testing), dosing: str(s.dosing), warnings: str(s.warnings) });
  }
  for (const p of lists.pathway) give('pathway', str(p.id), 'description', str(p.description));
  for (const g of lists.guideline) give('guideline', str(g.id), 'recommendations', Array.isArray(g.recommendations) ? g.recommendations : []);
  return out;
}

/** A gene's alleles as CPIC's two sheets: the functionality table and the frequency table. */
function alleleTables(gene: string, alleles: Json[]): { path: string; content: string }[] {
  const short = (name: string) => (name.toUpperCase().startsWith(gene.toUpperCase()) ? name.slice(gene.length).trim() : name);
  const rows = alleles.filter((a) => str(a.name));
  if (!rows.length) return [];
  const files = [];
  const fn = ['Allele\tActivity Value\tAllele Clinical Functional Status\tDefining Variants\tPharmVar ID'];
  for (const a of rows) fn.push([short(str(a.name)), typeof a.activityScore === 'number' ? a.activityScore : '', a.function, strs(a.definingVariants).join(', '), a.pharmVarId].map(cell).join('\t'));
  files.push({ path: `api/alleles/${gene}_allele_functionality_reference.tsv`, content: `${gene} Allele Functionality Table\n${fn.join('\n')}\n` });
  const groups = [...new Set(rows.flatMap((a) => Object.keys(obj(a.frequencies))))];
  if (groups.length) {
    const fq = [['Allele', ...groups].map(cell).join('\t')];
    for (const a of rows) {
      const f = obj(a.frequencies);
      if (Object.keys(f).length) fq.push([short(str(a.name)), ...groups.map((g) => (typeof f[g] === 'number' ? f[g] : ''))].map(cell).join('\t'));
    }
    files.push({ path: `api/alleles/${gene}_frequency_table.tsv`, content: `${gene} Frequency Table\n${fq.join('\n')}\n` });
  }
  return files;
}

/** CPIC's gene–drug pair list, from the pairs that carry a CPIC level. */
function cpicPairs(pairs: Json[]): string {
  const lines = ['Gene\tDrug\tGuideline\tCPIC Level\tPharmGKB Level of Evidence'];
  for (const p of pairs) {
    if (!str(p.cpicLevel)) continue;
    const cpicGuideline = strs(p.sources).includes('CPIC') ? str(p.guidelineUrl) : '';
    lines.push([p.gene, p.drug, cpicGuideline, p.cpicLevel, p.evidenceLevel].map(cell).join('\t'));
  }
  return `${lines.join('\n')}\n`;
}

/** Harvests the API and returns the files to load beside the downloads. */
export async function harvestPgxApi(ctx: ApiHarvestContext): Promise<{ path: string; content: string }[]> {
  const store = join(ctx.dir, 'api');
  const state = await readState<State>(store, {});
  if (state.complete) {
    // A new harvest: the lists are asked again; what was asked per gene or drug is kept.
    await rm(join(store, 'lists'), { recursive: true, force: true });
    state.complete = false;
    await writeState(store, state);
  }
  const answers = new Answers(ctx, store);
  const lists = {} as Record<ListName, Json[]>;
  for (const name of LISTS) lists[name] = await answers.list(`lists/${name}.json`, `v1/${name}`);
  ctx.note(`API lists: ${LISTS.map((n) => `${lists[n].length.toLocaleString('en-US')} ${n}`).join(', ')}`);

  const genes = [...new Set([...lists.geneDrugPair.filter((p) => str(p.cpicLevel)).map((p) => str(p.gene)), ...lists.guideline.flatMap((g) => strs(g.genes))])].filter((g) => g);
  const drugs = [...new Set(lists.geneDrugPair.filter((p) => strs(p.sources).some((s) => LABEL_SOURCES.has(s))).map((p) => str(p.drug)))].filter((d) => d);
  const files: { path: string; content: string }[] = [];
  for (const gene of genes.sort()) {
    files.push(...alleleTables(gene, await answers.list(`alleles/${encodeURIComponent(gene)}.json`, `v1/allele?gene=${encodeURIComponent(gene)}`, true)));
  }
  // A label of a combination product is listed under each of its drugs: each is kept once.
  const labels = new Map<string, Json>();
  for (const drug of drugs.sort()) {
    for (const l of await answers.list(`labels/${encodeURIComponent(drug)}.json`, `v1/drugLabel?drug=${encodeURIComponent(drug)}`, true)) labels.set(str(l.id) || JSON.stringify(l), l);
  }
  state.complete = true;
  await writeState(store, state);

  const given = details(lists, [...labels.values()]);
  ctx.note(
    `API harvest done: ${answers.asked.toLocaleString('en-US')} requests this run; alleles of ${genes.length} genes, labels of ${drugs.length} drugs, ${given.length.toLocaleString('en-US')} members beyond the downloads`,
  );
  files.push({ path: 'api/details.json', content: JSON.stringify({ details: given }) });
  files.push({ path: 'api/cpic_gene-drug_pairs.tsv', content: cpicPairs(lists.geneDrugPair) });
  return files;
}
