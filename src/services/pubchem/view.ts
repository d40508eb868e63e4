/** PUG View: `/rest/pug_view/data/compound/{cid}/JSON|XML[?heading=...]`. */
import type { Props } from './chem/properties.js';
import type { Structures } from './chem/structures.js';
import type { Data } from './data.js';
import { pcErrors } from './errors.js';
import { answer, type Answer } from './output/render.js';
import { documentXml, PUG_VIEW_NS } from './output/xml.js';
import { buildView, selectHeading } from './pugview.js';

export async function handleView(data: Data, structures: Structures, rawPath: string, heading: string | undefined): Promise<Answer> {
  const seg = rawPath.split('/').filter((s) => s !== '');
  const [kind, recordType, id, format = 'JSON', ...extra] = seg;
  const output = format.toUpperCase();
  if (kind !== 'data' || extra.length) throw pcErrors.viewNotFound(`/rest/pug_view/${rawPath} is not served; use /rest/pug_view/data/compound/{cid}/JSON`);
  if (recordType?.toLowerCase() !== 'compound') throw pcErrors.viewNotFound(`PUG View records of type "${recordType ?? ''}" are not served; compound records are`);
  if (output !== 'JSON' && output !== 'XML') throw pcErrors.viewBadRequest('Invalid output format', `"${format}" is not a PUG View format; use JSON or XML`);
  const cid = Number(id);
  if (!id || !/^\d+$/.test(id) || !Number.isSafeInteger(cid) || cid <= 0) throw pcErrors.viewBadRequest('Invalid record number', `"${id ?? ''}" is not a CID`);
  const c = await data.compounds();
  const row = c ? (await c.store.rows([cid], ['props', 'computed'])).get(cid) : undefined;
  if (!c || !row) throw pcErrors.viewNotFound(`No record for CID ${cid}`);
  const [titles, synonyms, annotation, assays] = await Promise.all([c.store.titles([cid]), c.store.synonyms([cid]), c.store.annotation(cid), data.assays()]);
  let tested: { aid: number; name: string; outcome: string }[] = [];
  if (assays) {
    const rows = await assays.activities('cid', [cid]);
    const names = await assays.assays([...new Set(rows.map((r) => r.aid))]);
    tested = rows.map((r) => ({ aid: r.aid, name: names.get(r.aid)?.name ?? '', outcome: r.outcome }));
  }
  let rec = buildView({
    cid,
    title: titles.get(cid),
    props: JSON.parse(row.props) as Props,
    computed: new Set(row.computed.split(',').filter(Boolean)),
    synonyms: synonyms.get(cid) ?? [],
    assays: tested,
    annotation,
    rdkitVersion: await structures.rdkitVersion(),
  });
  if (heading !== undefined) rec = selectHeading(rec, heading);
  const doc = { Record: rec };
  return output === 'XML' ? answer('XML', documentXml(doc, PUG_VIEW_NS)) : answer('JSON', JSON.stringify(doc, null, 2) + '\n');
}
