/**
 * The `conformers` domain: `/rest/pug/conformers/{id}/{output}` answers one conformer of the loaded
 * Compound_3D files by PubChem's conformer id (16 hexadecimal digits, as `compound/.../conformers`
 * lists them): SDF as loaded, or the 3D record as JSON, JSONP or XML. ASE and other clients fetch
 * conformers this way.
 */
import { record3d } from './chem/conformer3d.js';
import { currentLabels } from './chem/record.js';
import type { Data } from './data.js';
import { pcErrors } from './errors.js';
import { asnXml } from './output/asn.js';
import { answer, renderDoc, type Answer } from './output/render.js';
import { outputFromAccept, outputOf } from './output/formats.js';
import type { Options } from './request.js';

const OUTPUTS = ['SDF', 'JSON', 'JSONP', 'XML'] as const;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw pcErrors.badRequest('Invalid URL', `"${segment}" is not a valid percent-encoded path segment`);
  }
}

export async function handleConformers(data: Data, rawPath: string, options: Options, accept: string | undefined): Promise<Answer> {
  const [given = '', format, ...extra] = rawPath
    .split('/')
    .filter((s) => s !== '')
    .map(decode);
  const ids = given
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (!ids.length) throw pcErrors.noIdentifier('conformer id');
  const bad = ids.find((id) => !/^[0-9A-Fa-f]{16}$/.test(id));
  if (bad !== undefined) throw pcErrors.badRequest('Invalid conformer id', `"${bad}" is not a conformer id (16 hexadecimal digits, e.g. 000008C400000001)`);
  if (extra.length) throw pcErrors.badRequest('Invalid URL', `unexpected path segments after the output: ${extra.join('/')}`);
  const fromPath = format === undefined ? undefined : outputOf(format);
  if (format !== undefined && !fromPath) throw pcErrors.badRequest('Invalid output format', `"${format}" is not an output format; use ${OUTPUTS.join(', ')}`);
  const output = fromPath ?? outputFromAccept(accept);
  if (output === 'unacceptable') throw pcErrors.notAllowed(`the Accept header "${accept ?? ''}" names no output format PUG REST serves`);
  if (!(OUTPUTS as readonly string[]).includes(output)) throw pcErrors.badOutput(output, 'conformers', OUTPUTS);
  const store = await data.conformers();
  const compounds = await data.compounds();
  if (!store || !compounds) throw pcErrors.notFound('No records found for the given conformer id(s)', 'No Compound_3D conformers are loaded');
  const cids: number[] = [];
  for (const id of ids) {
    const cid = await store.cidOf(id);
    if (cid !== undefined && !cids.includes(cid)) cids.push(cid);
  }
  if (!cids.length) throw pcErrors.notFound('No records found for the given conformer id(s)');
  const confs = await store.byCids(cids);
  if (output === 'SDF') return answer('SDF', cids.map((cid) => confs.get(cid)?.sdf ?? '').join(''));
  const stored = await compounds.store.records(cids);
  const records = cids.flatMap((cid) => {
    const c = confs.get(cid);
    const base = stored.get(cid);
    // A conformer whose compound is not loaded is served with the identity it needs.
    return c ? [record3d(base ? currentLabels(base) : { id: { id: { cid } } }, c)] : [];
  });
  return renderDoc({ PC_Compounds: records }, output, options, { XML: () => asnXml('PC-Compounds', 'PC-Compound', records) });
}
