/**
 * The bioRxiv API's operations described for biomirror's reference page (the service publishes no
 * OpenAPI document): the path forms paths.ts reads, with examples from the demo records.
 */
import type { ApiReference, OperationDoc, ParamDoc } from '../types.js';
import { CATEGORIES } from './categories.js';
import { CONTENT_TYPES } from './fulltext.js';

const server: ParamDoc = { name: 'server', in: 'path', description: 'The preprint server (biomirror serves bioRxiv)', enum: ['biorxiv'], example: 'biorxiv' };
const cursor: ParamDoc = { name: 'cursor', in: 'path', type: 'integer', description: 'Index of the first record of the page (pages hold 100)', example: 0 };
const format: ParamDoc = { name: 'format', in: 'path', description: 'Envelope format', enum: ['json', 'xml'], example: 'json' };
const start: ParamDoc = { name: 'start', in: 'path', description: 'First posting date, YYYY-MM-DD', example: '2024-01-01' };
const end: ParamDoc = { name: 'end', in: 'path', description: 'Last posting date, YYYY-MM-DD', example: '2024-12-31' };
const doi: ParamDoc = { name: 'doi', in: 'path', description: 'The preprint DOI', example: '10.5555/2024.01.08.000101' };
const ANSWERS = ['application/json', 'application/xml'];

/** The four path forms of `details` and `pubs`. */
function lists(endpoint: 'details' | 'pubs', what: string): OperationDoc[] {
  const tag = endpoint === 'details' ? 'Details' : 'Published articles';
  const category: ParamDoc[] = endpoint === 'details' ? [{ name: 'category', in: 'query', description: 'Only preprints of this subject category', enum: CATEGORIES }] : [];
  return [
    {
      path: `/${endpoint}/{server}/{start}/{end}/{cursor}/{format}`,
      tag,
      summary: `${what} posted between two dates`,
      params: [server, start, end, cursor, format, ...category],
      answers: ANSWERS,
    },
    {
      path: `/${endpoint}/{server}/{interval}/{cursor}/{format}`,
      tag,
      summary: `${what}: the most recent`,
      description: endpoint === 'details' ? '`{N}` is the N most recent postings; `{N}d` those of the last N days.' : '`{N}` or `{N}d`: those of the last N days.',
      params: [server, { name: 'interval', in: 'path', description: '`N` or `Nd`', example: endpoint === 'details' ? '5' : '10000d' }, cursor, format, ...category],
      answers: ANSWERS,
    },
    {
      path: `/${endpoint}/{server}/{doi}/na/{format}`,
      tag,
      summary: `${what} of one preprint, every version`,
      params: [server, endpoint === 'pubs' ? { ...doi, example: '10.5555/2024.01.11.000102' } : doi, format],
      answers: ANSWERS,
    },
  ];
}

const version: ParamDoc = { name: 'version', in: 'path', type: 'integer', description: 'Version of the preprint', example: 1 };

export const BIORXIV_REFERENCE: ApiReference = {
  description:
    'The bioRxiv API (api.biorxiv.org): preprint details and their published articles, by date interval, recency or DOI, in pages of 100; and the full text at the site addresses (www.biorxiv.org/content/...). The demo holds preprints posted in 2024 under the test prefix 10.5555.',
  tags: { Details: 'Preprint metadata', 'Published articles': 'Preprints with their journal publication', 'Full text': "The site's full-text files" },
  operations: [
    ...lists('details', 'Preprints'),
    ...lists('pubs', 'Published preprints'),
    {
      path: '/content/{doi}v{version}.full.pdf',
      tag: 'Full text',
      summary: 'The PDF of a preprint version',
      params: [doi, version],
      answers: [CONTENT_TYPES.pdf],
    },
    {
      path: '/content/{doi}v{version}.source.xml',
      tag: 'Full text',
      summary: 'The JATS XML of a preprint version',
      params: [doi, version],
      answers: [CONTENT_TYPES.xml],
    },
    {
      path: '/content/{doi}v{version}.full',
      tag: 'Full text',
      summary: 'The full-text HTML page of a preprint version',
      params: [doi, version],
      answers: [CONTENT_TYPES.html],
    },
  ],
};
