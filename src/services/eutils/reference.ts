/**
 * E-utilities described for biomirror's reference page (NCBI publishes no OpenAPI document of
 * them): each utility with the parameters its handler reads, GET or POST (form body), and
 * examples from the demo genes. The same utilities answer below `/entrez/eutils` too.
 */
import type { ApiReference, OperationDoc, ParamDoc } from '../types.js';
import { DB_NAMES } from './data.js';
import { JSON_TYPE, TEXT_TYPE, XML_TYPE } from './errors.js';
import { LINKS } from './links.js';

const db: ParamDoc = { name: 'db', in: 'query', description: 'Entrez database', enum: DB_NAMES, required: true, example: 'gene' };
const retmode = (modes: string[], example?: string): ParamDoc => ({ name: 'retmode', in: 'query', description: 'Output format', enum: modes, ...(example ? { example } : {}) });
const id: ParamDoc = { name: 'id', in: 'query', description: 'UIDs, comma-separated (or `WebEnv` with `query_key`)', example: '672' };
const history: ParamDoc[] = [
  { name: 'WebEnv', in: 'query', description: 'History server session, from esearch (usehistory=y) or epost' },
  { name: 'query_key', in: 'query', type: 'integer', description: 'Entry of the WebEnv session to use instead of `id`' },
];
const paging: ParamDoc[] = [
  { name: 'retstart', in: 'query', type: 'integer', description: 'Index of the first UID returned (default 0)' },
  { name: 'retmax', in: 'query', type: 'integer', description: 'How many UIDs are returned (default 20; at most 10,000)' },
];
const apiKey: ParamDoc = { name: 'api_key', in: 'query', description: 'NCBI API key: 10 requests per second instead of 3' };

const tool = (path: string, summary: string, description: string, params: ParamDoc[], answers: string[]): OperationDoc => ({
  path: `/${path}.fcgi`,
  methods: ['get', 'post'],
  tag: 'E-utilities',
  summary,
  description,
  params: [...params, apiKey],
  answers,
});

export const EUTILS_REFERENCE: ApiReference = {
  description:
    'NCBI E-utilities for db=gene and db=clinvar: search, summaries, full records, links and the history server, each answering GET or POST (a form body). The same utilities answer below /entrez/eutils, as on eutils.ncbi.nlm.nih.gov. The demo holds human BRCA1 (GeneID 672), TP53 (7157) and other genes, and ClinVar variations.',
  tags: { 'E-utilities': 'eutils.ncbi.nlm.nih.gov/entrez/eutils' },
  operations: [
    tool(
      'esearch',
      'Search a database: the UIDs matching a query',
      'Entrez query syntax with field tags (`BRCA1[gene] AND human[orgn]`), Boolean operators and ranges; `usehistory=y` keeps the result on the history server.',
      [
        db,
        { name: 'term', in: 'query', description: 'Entrez query', example: 'BRCA1[gene] AND human[orgn]' },
        { name: 'field', in: 'query', description: 'Field the whole term is searched in' },
        ...paging,
        { name: 'rettype', in: 'query', description: 'UIDs, or only their count', enum: ['uilist', 'count'] },
        { name: 'sort', in: 'query', description: 'Order of the UIDs', enum: ['relevance'] },
        { name: 'usehistory', in: 'query', description: 'Keep the result on the history server', enum: ['y', 'n'] },
        ...history,
        retmode(['xml', 'json'], 'json'),
      ],
      [XML_TYPE, JSON_TYPE],
    ),
    tool(
      'esummary',
      'Document summaries of UIDs',
      'Version 2.0 document summaries, as XML or JSON.',
      [db, id, ...history, ...paging, { name: 'version', in: 'query', description: 'Summary version', enum: ['2.0', '1.0'] }, retmode(['xml', 'json'], 'json')],
      [XML_TYPE, JSON_TYPE],
    ),
    tool(
      'efetch',
      'Full records of UIDs',
      'db=gene: Entrezgene XML (default), ASN.1 (`retmode=asn.1`), text summaries, `rettype=gene_table`, `docsum` and `uilist`. db=clinvar: VCV XML (default, also `rettype=vcv`), `rettype=rcv` (or `clinvarset`), `docsum` and `uilist`.',
      [
        db,
        id,
        ...history,
        ...paging,
        { name: 'rettype', in: 'query', description: 'Record type', enum: ['docsum', 'gene_table', 'uilist', 'vcv', 'rcv', 'clinvarset'] },
        retmode(['xml', 'json', 'text', 'asn.1']),
      ],
      [XML_TYPE, JSON_TYPE, TEXT_TYPE],
    ),
    tool(
      'elink',
      'Links from UIDs to other records',
      'cmd=neighbor: for each group of UIDs, the records linked in the target database.',
      [
        { name: 'dbfrom', in: 'query', description: 'Database of the given UIDs', enum: DB_NAMES, required: true, example: 'gene' },
        { name: 'db', in: 'query', description: 'Target database (all when absent)', example: 'pubmed' },
        id,
        { name: 'linkname', in: 'query', description: 'Only these links, comma-separated', enum: [...new Set(LINKS.map((l) => l.name))] },
        { name: 'cmd', in: 'query', description: 'Link command', enum: ['neighbor'] },
        ...history,
        retmode(['xml', 'json'], 'json'),
      ],
      [XML_TYPE, JSON_TYPE],
    ),
    tool(
      'einfo',
      "The databases served, or one database's fields, links and counts",
      'Without `db`, the list of databases; with it, its statistics, search fields and link names.',
      [{ ...db, required: false }, { name: 'version', in: 'query', description: 'Field list version', enum: ['2.0'] }, retmode(['xml', 'json'], 'json')],
      [XML_TYPE, JSON_TYPE],
    ),
    tool(
      'epost',
      'Keep UIDs on the history server',
      'Answers a WebEnv and query_key for later esummary, efetch or elink requests.',
      [db, id, { name: 'WebEnv', in: 'query', description: 'Add to this session instead of a new one' }],
      [XML_TYPE],
    ),
    tool(
      'espell',
      'Spelling suggestions for a query',
      'The query with each term replaced by the closest indexed one.',
      [db, { name: 'term', in: 'query', description: 'Query to check', example: 'brca1' }],
      [XML_TYPE],
    ),
    tool(
      'egquery',
      'How many records a query matches in each database',
      'The global query, over the databases served.',
      [{ name: 'term', in: 'query', description: 'Entrez query', required: true, example: 'BRCA1' }],
      [XML_TYPE],
    ),
  ],
};
