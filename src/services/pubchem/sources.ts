/**
 * The `sources` domain: `/rest/pug/sources/{substance|assay}/{output}` lists the depositors of the
 * loaded substances or assays (`{"InformationList": {"SourceName": [...]}}`), as pubchempy's
 * `get_all_sources` reads it.
 */
import type { Data } from './data.js';
import { pcErrors } from './errors.js';
import { outputFromAccept, outputOf } from './output/formats.js';
import { renderDoc, type Answer } from './output/render.js';
import type { Options } from './request.js';

const KINDS = ['substance', 'assay'] as const;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw pcErrors.badRequest('Invalid URL', `"${segment}" is not a valid percent-encoded path segment`);
  }
}

export async function handleSources(data: Data, rawPath: string, options: Options, accept: string | undefined): Promise<Answer> {
  const [kindName = '', format, ...extra] = rawPath
    .split('/')
    .filter((s) => s !== '')
    .map(decode);
  const kind = KINDS.find((k) => k === kindName.toLowerCase());
  if (!kind) throw pcErrors.badRequest('Invalid source type', `"${kindName}" is not a source type; use sources/substance or sources/assay`);
  if (extra.length) throw pcErrors.badRequest('Invalid URL', `unexpected path segments after the output: ${extra.join('/')}`);
  const fromPath = format === undefined ? undefined : outputOf(format);
  if (format !== undefined && !fromPath) throw pcErrors.badRequest('Invalid output format', `"${format}" is not an output format; use JSON, JSONP or XML`);
  const output = fromPath ?? outputFromAccept(accept);
  if (output === 'unacceptable') throw pcErrors.notAllowed(`the Accept header "${accept ?? ''}" names no output format PUG REST serves`);
  if (output !== 'JSON' && output !== 'JSONP' && output !== 'XML') throw pcErrors.badOutput(output, 'sources', ['JSON', 'JSONP', 'XML']);
  const store = kind === 'substance' ? await data.substances() : await data.assays();
  if (!store) throw pcErrors.notFound('No data found', `No ${kind} data is loaded; load PubChem ${kind} files with \`biomirror ingest pubchem --dataset ${kind}s\``);
  const names = (await store.sources()).sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || a.localeCompare(b));
  return renderDoc({ InformationList: { SourceName: names } }, output, options);
}
