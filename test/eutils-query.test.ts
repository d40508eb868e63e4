import { describe, expect, it } from 'vitest';
import { compileQuery, leaves, prune, stack, translate } from '../src/services/ncbi/search/compile.js';
import { parseQuery, QuerySyntaxError } from '../src/services/ncbi/search/query.js';
import { GENE_DB } from '../src/services/ncbi/gene/fields.js';
import { CLINVAR_DB } from '../src/services/ncbi/clinvar/fields.js';
import type { ResolveContext } from '../src/services/ncbi/search/fields.js';
import { builtInTaxonByName, withDescendants } from '../src/services/ncbi/taxa.js';
import { conditions, docsumDate, hgvsParts, significanceTerms, spdi } from '../src/services/ncbi/clinvar/values.js';
import { unparse } from '../src/services/eutils/search.js';

const ctx: ResolveContext = {
  async taxon(name) {
    const t = builtInTaxonByName(name);
    return t ? { taxIds: withDescendants(t.taxId), scientific: t.scientific } : undefined;
  },
};

describe('Entrez query parser', () => {
  it('reads tags, phrases, truncation and history references', () => {
    const q = parseQuery('breast cancer[dis] AND "tumor protein"[gfn] OR brca*[gene] NOT #2');
    expect(unparse(q)).toBe('breast cancer[dis] AND "tumor protein"[gfn] OR brca*[gene] NOT #2');
    // Entrez evaluates operators left to right: ((a AND b) OR c) NOT d.
    expect(q.t === 'op' && q.op).toBe('NOT');
    expect(q.t === 'op' && q.l.t === 'op' && q.l.op).toBe('OR');
  });

  it('ANDs adjacent untagged words and keeps groups', () => {
    expect(unparse(parseQuery('tumor protein (BRCA1 OR TP53)'))).toBe('tumor AND protein AND (BRCA1 OR TP53)');
    expect(unparse(parseQuery('Homo sapiens[Organism:exp]'))).toBe('Homo sapiens[organism]');
  });

  it('refuses malformed queries, saying where', () => {
    const bad: [string, RegExp][] = [
      ['(BRCA1 AND', /unbalanced "\(" at position 1|has no term after it/],
      ['BRCA1)', /unbalanced "\)" at position 6/],
      ['AND BRCA1', /has no term before it/],
      ['"open phrase', /unterminated quoted phrase/],
      ['BRCA1[gene', /unterminated field tag/],
      ['[gene]', /follows no term/],
      ['()', /empty parentheses/],
      ['*', /truncation/],
      ['   ', /empty query/],
    ];
    for (const [q, msg] of bad) expect(() => parseQuery(q), q).toThrow(msg);
    expect(() => parseQuery('x'.repeat(9000))).toThrow(QuerySyntaxError);
  });
});

describe('Query translation', () => {
  it('maps organism names and tags to the real field names', async () => {
    const c = await compileQuery(GENE_DB, parseQuery('BRCA1[sym] AND human[orgn]'), ctx);
    expect(translate(c.plan)).toBe('BRCA1[Gene Name] AND "Homo sapiens"[Organism]');
    expect(c.translationSet).toEqual([{ from: 'human[orgn]', to: '"Homo sapiens"[Organism]' }]);
    const l = leaves(c.plan);
    expect(l[1]?.node).toEqual({ k: 'atom', fields: [3], terms: ['9606'], prefix: false });
    expect(l[1]?.explode).toBe(true);
  });

  it('includes subordinate taxa: yeast is the species and the S288C strain', async () => {
    const c = await compileQuery(GENE_DB, parseQuery('txid4932[organism]'), ctx);
    expect(leaves(c.plan)[0]?.node).toMatchObject({ terms: ['4932', '559292'] });
    expect(translate(c.plan)).toBe('"Saccharomyces cerevisiae"[Organism]');
  });

  it('maps a bare organism name to the organism field or all fields', async () => {
    const c = await compileQuery(GENE_DB, parseQuery('mouse'), ctx);
    expect(translate(c.plan)).toBe('("Mus musculus"[Organism] OR mouse[All Fields])');
    expect(c.translationSet[0]).toEqual({ from: 'mouse', to: '"Mus musculus"[Organism] OR mouse[All Fields]' });
  });

  it('reports unknown tags and searches the term in all fields instead', async () => {
    const c = await compileQuery(GENE_DB, parseQuery('BRCA1[flavour]'), ctx);
    expect(c.fieldsNotFound).toEqual(['flavour']);
    expect(translate(c.plan)).toBe('BRCA1[All Fields]');
  });

  it('drops terms that match nothing and writes the stack in postfix order', async () => {
    const c = await compileQuery(CLINVAR_DB, parseQuery('HFE[gene] AND nothing[gene] OR "likely benign"[clnsig]'), ctx);
    const [a, b, d] = leaves(c.plan);
    (a as { count: number }).count = 5;
    (b as { count: number }).count = 0;
    (d as { count: number }).count = 2;
    const kept = prune(c.plan);
    expect(kept && translate(kept)).toBe('HFE[Gene Name] OR "likely benign"[Clinical Significance]');
    expect(kept && stack(kept)).toEqual([
      { term: 'HFE[Gene Name]', field: 'Gene Name', count: 5, explode: false },
      { term: '"likely benign"[Clinical Significance]', field: 'Clinical Significance', count: 2, explode: false },
      'OR',
      'GROUP',
    ]);
  });
});

describe('ClinVar values', () => {
  it('reads HGVS names, significances, conditions, dates and SPDI', () => {
    expect(hgvsParts('NM_000410.4(HFE):c.845G>A (p.Cys282Tyr)')).toMatchObject({ cdna: 'c.845G>A', protein: 'p.Cys282Tyr', proteinShort: 'C282Y', gene: 'HFE' });
    expect(hgvsParts('NM_000410.4(HFE):c.892+48G>A').proteinShort).toBe('');
    expect(significanceTerms('Pathogenic/Likely pathogenic; risk factor')).toEqual(['Pathogenic/Likely pathogenic; risk factor', 'Pathogenic', 'Likely pathogenic', 'risk factor']);
    expect(conditions('A|B;C', 'MedGen:C1|MedGen:C2,OMIM:1;MedGen:C3')).toEqual([
      { name: 'A', xrefs: [{ db: 'MedGen', id: 'C1' }] },
      {
        name: 'B',
        xrefs: [
          { db: 'MedGen', id: 'C2' },
          { db: 'OMIM', id: '1' },
        ],
      },
      { name: 'C', xrefs: [{ db: 'MedGen', id: 'C3' }] },
    ]);
    expect(docsumDate('Jun 05, 2018')).toBe('2018/06/05 00:00');
    expect(docsumDate('-')).toBe('');
    expect(spdi('NC_000006.12', '26092913', 'G', 'A')).toBe('NC_000006.12:26092912:G:A');
    expect(spdi('NC_000007.14', '4787729', 'GCTG', 'G')).toBe('');
  });
});
