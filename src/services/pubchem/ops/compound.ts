/** Operations of the compound domain. */
import { currentLabels } from '../chem/record.js';
import { propertyName, storedName, type Props } from '../chem/properties.js';
import type { CompoundGen } from '../data.js';
import { pcErrors } from '../errors.js';
import { imageSize, linkTypes, outcomeType, recordType } from '../options.js';
import { asnXml } from '../output/asn.js';
import { recordsAsn } from '../output/asnt-asnb.js';
import { csvTable, txtLines, type Output } from '../output/formats.js';
import { answer, renderDoc, type Answer } from '../output/render.js';
import { XREF_TYPES, type PugRequest } from '../request.js';
import type { Env, Subject } from '../resolve.js';
import { activityTable, identifierList, linkedList } from './common.js';
import { PROPERTIES_3D, record3d } from '../chem/conformer3d.js';
import { computedHeaders, conformersOf } from './three-d.js';

type CompoundSubject = Extract<Subject, { domain: 'compound' }>;

async function gen(env: Env): Promise<CompoundGen> {
  const c = await env.data.compounds();
  if (!c) throw pcErrors.noRecords('CID');
  return c;
}

/** The subject's CIDs that are in the database, in the given order; 404 when there are none. */
async function existing(env: Env, s: CompoundSubject): Promise<{ c: CompoundGen; cids: number[] }> {
  if (!s.ids.length) throw s.novel ? pcErrors.noCid('No CID found: the structure is not in the database') : pcErrors.noRecords('CID');
  const c = await gen(env);
  const known = await c.store.known(s.ids);
  const cids = s.ids.filter((id) => known.has(id));
  if (!cids.length) throw pcErrors.noRecords('CID');
  return { c, cids };
}

/** The subject's CIDs as given, for links kept in other datasets (CID-SID, bioassays) that need no compound record. */
function given(s: CompoundSubject): number[] {
  if (!s.ids.length) throw s.novel ? pcErrors.noCid('No CID found: the structure is not in the database') : pcErrors.noRecords('CID');
  return s.ids;
}

/** The record (or image) PubChem computes for a structure that is not in the database (no CID). */
async function novelRecord(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  const novel = s.novel as NonNullable<CompoundSubject['novel']>;
  const unreadable = () => pcErrors.badStructure(novel.kind.toUpperCase(), novel.text);
  if (req.output === 'PNG') {
    const png = await env.structures.image(novel.kind, novel.text, imageSize(req.options));
    if (!png) throw unreadable();
    return answer('PNG', png);
  }
  const n = await env.structures.record(novel.kind, novel.text);
  if (!n) throw unreadable();
  if (req.output === 'SDF') return answer('SDF', n.sdf);
  if (req.output === 'ASNT' || req.output === 'ASNB') return recordsAsn('PC-Compounds', [n.record], req.output);
  return renderDoc({ PC_Compounds: [n.record] }, req.output, req.options, { XML: () => asnXml('PC-Compounds', 'PC-Compound', [n.record]) });
}

/** `record_type=3d`: each CID's conformer record; CIDs without one are left out, and none at all is 404. */
async function record3dAnswer(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  if (req.output === 'PNG') throw pcErrors.unimplemented('PNG images of 3D conformers');
  if (!s.ids.length && s.novel) throw pcErrors.unimplemented('3D records of structures that are not in the database');
  const { c, cids } = await existing(env, s);
  const confs = await conformersOf(env, c, cids);
  const found = cids.filter((cid) => confs.byCid.has(cid));
  if (!found.length) throw pcErrors.notFound('No records found for the given CID(s)', 'No 3D conformer is loaded (or computable) for the given CID(s)');
  const headers = computedHeaders(confs);
  const withHeaders = (a: Answer): Answer => (headers ? { ...a, headers } : a);
  if (req.output === 'SDF') return withHeaders(answer('SDF', found.map((cid) => confs.byCid.get(cid)?.sdf ?? '').join('')));
  const stored = await c.store.records(found);
  const records = found.map((cid) => record3d(currentLabels(stored.get(cid) ?? {}), confs.byCid.get(cid) as NonNullable<ReturnType<typeof confs.byCid.get>>));
  if (req.output === 'ASNT' || req.output === 'ASNB') return withHeaders(recordsAsn('PC-Compounds', records, req.output));
  return withHeaders(renderDoc({ PC_Compounds: records }, req.output, req.options, { XML: () => asnXml('PC-Compounds', 'PC-Compound', records) }));
}

async function record(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  if (recordType(req.options) === '3d') return record3dAnswer(env, s, req);
  if (!s.ids.length && s.novel) return novelRecord(env, s, req);
  const { c, cids } = await existing(env, s);
  if (req.output === 'PNG') {
    const row = (await c.store.rows([cids[0] as number], ['sdf'])).get(cids[0] as number);
    const png = row ? await env.structures.depict(row.sdf.slice(0, row.sdf.indexOf('M  END') + 6), imageSize(req.options)) : undefined;
    if (!png) throw pcErrors.noRecords('CID');
    return answer('PNG', png.png);
  }
  if (req.output === 'SDF') {
    const rows = await c.store.rows(cids, ['sdf']);
    return answer('SDF', cids.map((cid) => rows.get(cid)?.sdf ?? '').join(''));
  }
  const stored = await c.store.records(cids);
  const records = cids.map((cid) => currentLabels(stored.get(cid) ?? {}));
  if (req.output === 'ASNT' || req.output === 'ASNB') return recordsAsn('PC-Compounds', records, req.output);
  return renderDoc({ PC_Compounds: records }, req.output, req.options, { XML: () => asnXml('PC-Compounds', 'PC-Compound', records) });
}

async function property(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  const list = (req.argument ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (!list.length) throw pcErrors.badRequest('Invalid property', 'property needs a comma-separated list of property names, e.g. property/MolecularWeight,InChIKey');
  const names = list.map(
    (p) =>
      propertyName(p) ??
      (() => {
        throw pcErrors.badProperty(p);
      })(),
  );
  if (req.output === 'TXT' && names.length > 1) throw pcErrors.badOutput('TXT', 'more than one property', ['JSON', 'XML', 'CSV']);
  const { c, cids } = await existing(env, s);
  const rows = await c.store.rows(cids, ['props']);
  const titles = names.includes('Title') ? await c.store.titles(cids) : new Map<number, string>();
  // 3D values come from each compound's conformer, looked up (or computed) only when asked for.
  const threeD: readonly string[] = PROPERTIES_3D;
  const confs = names.some((n) => threeD.includes(n)) ? await conformersOf(env, c, cids) : undefined;
  const table = cids.map((cid) => {
    const props = JSON.parse(rows.get(cid)?.props ?? '{}') as Props;
    const props3d = confs?.byCid.get(cid)?.props ?? {};
    const row: Record<string, string | number> = { CID: cid };
    for (const n of names) {
      const v = n === 'Title' ? titles.get(cid) : threeD.includes(n) ? props3d[n] : props[storedName(n)];
      if (v !== undefined) row[n] = v;
    }
    return row;
  });
  const a = renderDoc({ PropertyTable: { Properties: table } }, req.output, req.options, {
    CSV: () =>
      csvTable(
        ['CID', ...names],
        table.map((r) => [r.CID, ...names.map((n) => r[n])]),
      ),
    TXT: () => txtLines(table.map((r) => r[names[0] as string]).filter((v) => v !== undefined)),
  });
  const headers = confs && computedHeaders(confs);
  return headers ? { ...a, headers } : a;
}

async function synonyms(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  const { c, cids } = await existing(env, s);
  const syn = await c.store.synonyms(cids);
  const info = cids.filter((cid) => syn.get(cid)?.length).map((cid) => ({ CID: cid, Synonym: syn.get(cid) as string[] }));
  if (!info.length) throw pcErrors.notFound('No synonyms found', 'None of the given CIDs has synonyms in the loaded data');
  return renderDoc({ InformationList: { Information: info } }, req.output, req.options, { TXT: () => txtLines(info.flatMap((i) => i.Synonym)) });
}

/** The relationships PubChem's compound-to-CID operation knows (its `cids_type` values). */
const CIDS_TYPES: readonly string[] = [
  'original',
  'parent',
  'component',
  'similar_2d',
  'similar_3d',
  'same_stereo',
  'same_isotopes',
  'same_connectivity',
  'same_tautomer',
  'same_parent',
  'same_parent_stereo',
  'same_parent_isotopes',
  'same_parent_connectivity',
  'same_parent_tautomer',
];

async function cids(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  const type = req.options.get('cids_type')?.toLowerCase() ?? 'original';
  if (!s.ids.length && s.novel) return identifierList(env, 'CID', [0], req.output, req.options);
  if (type === 'original') {
    // A search's or a name's CIDs are answered as found; CIDs given as input must exist.
    const list = s.search ? s.ids : (await existing(env, s)).cids;
    return identifierList(env, 'CID', list, req.output, req.options);
  }
  // A relationship PubChem has but this mirror does not compute is unimplemented (501); a value
  // PubChem does not know is a bad option (400).
  if (!CIDS_TYPES.includes(type)) throw pcErrors.badOption('cids_type', type, CIDS_TYPES.join(', '));
  if (type !== 'same_connectivity') throw pcErrors.unimplemented(`cids_type=${type}`);
  const { c, cids: found } = await existing(env, s);
  const rows = await c.store.rows(found, ['props']);
  const out: number[] = [];
  for (const cid of found) {
    const key = String((JSON.parse(rows.get(cid)?.props ?? '{}') as Props).InChIKey ?? '');
    for (const other of key ? await c.store.byConnectivity(key.slice(0, 14)) : []) if (!out.includes(other)) out.push(other);
  }
  return identifierList(env, 'CID', out, req.output, req.options);
}

async function sids(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  const found = given(s);
  const c = await env.data.compounds();
  const types = linkTypes(req.options, 'sids_type');
  const subs = await env.data.substances();
  const groups: [number, number[]][] = [];
  for (const cid of found) {
    const ids = new Set([...(c ? await c.store.sids(cid, types) : []), ...(subs ? await subs.sidsOf(cid, types) : [])]);
    groups.push([cid, [...ids].sort((a, b) => a - b)]);
  }
  return linkedList(env, 'CID', 'SID', groups, req.output, req.options, 'SIDs');
}

async function aids(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  const found = given(s);
  const assays = await env.data.assays();
  const outcome = outcomeType(req.options, 'aids_type');
  const groups: [number, number[]][] = [];
  for (const cid of found) groups.push([cid, assays ? await assays.linked('cid', cid, 'aid', outcome) : []]);
  return linkedList(env, 'CID', 'AID', groups, req.output, req.options, 'AIDs');
}

async function assaysummary(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  const found = given(s);
  const assays = await env.data.assays();
  const rows = assays ? await assays.activities('cid', found) : [];
  if (!assays || !rows.length) throw pcErrors.notFound('No data found', 'No bioassay results are loaded for the given CID(s)');
  return activityTable(rows, await assays.assays([...new Set(rows.map((r) => r.aid))]), req.output, req.options, true);
}

async function description(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  const { c, cids: found } = await existing(env, s);
  const titles = await c.store.titles(found);
  const info = found.filter((cid) => titles.has(cid)).map((cid) => ({ CID: cid, Title: titles.get(cid) as string }));
  if (!info.length) throw pcErrors.notFound('No description found', 'No titles are loaded for the given CID(s)');
  return renderDoc({ InformationList: { Information: info } }, req.output, req.options);
}

const CAS = /^\d{2,7}-\d{2}-\d$/;

/** `xrefs/RN`: the registry numbers among each compound's synonyms (other kinds need files not loaded). */
async function xrefs(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  const kinds = (req.argument ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  if (!kinds.length) throw pcErrors.badRequest('Invalid xref', 'xrefs needs a comma-separated list of cross-reference types, e.g. xrefs/RN');
  for (const k of kinds) {
    const known = XREF_TYPES.find((x) => x.toLowerCase() === k.toLowerCase());
    if (!known) throw pcErrors.badRequest('Invalid xref', `"${k}" is not a cross-reference type; allowed: ${XREF_TYPES.join(', ')}`);
    if (known !== 'RN') throw pcErrors.unimplemented(`xrefs/${known} (it needs cross-reference files this mirror does not load; RN is served from the synonyms)`);
  }
  const { c, cids: found } = await existing(env, s);
  const syn = await c.store.synonyms(found);
  const info = found.map((cid) => ({ CID: cid, RN: (syn.get(cid) ?? []).filter((n) => CAS.test(n)) })).filter((i) => i.RN.length);
  if (!info.length) throw pcErrors.notFound('No data found', 'None of the given CIDs has a registry number among its synonyms');
  return renderDoc({ InformationList: { Information: info } }, req.output, req.options, { TXT: () => txtLines(info.flatMap((i) => i.RN)) });
}

/** `conformers`: the conformer ids of each CID in the loaded Compound_3D files (computed conformers have none). */
async function conformers(env: Env, s: CompoundSubject, req: PugRequest): Promise<Answer> {
  const { cids: found } = await existing(env, s);
  const store = await env.data.conformers();
  const loaded = store ? await store.byCids(found) : new Map<number, { conformerId: string | undefined }>();
  const info = found.flatMap((cid) => {
    const id = loaded.get(cid)?.conformerId;
    return id ? [{ CID: cid, ConformerID: [id] }] : [];
  });
  if (!info.length) throw pcErrors.notFound('No data found', 'No PubChem conformer is loaded for the given CID(s)');
  return renderDoc({ InformationList: { Information: info } }, req.output, req.options, { TXT: () => txtLines(info.flatMap((i) => i.ConformerID)) });
}

type Run = (env: Env, s: CompoundSubject, req: PugRequest) => Promise<Answer>;

const JSON_XML: Output[] = ['JSON', 'JSONP', 'XML'];

export const COMPOUND_OPS: Record<string, { outputs: Output[]; run: Run }> = {
  record: { outputs: [...JSON_XML, 'SDF', 'PNG', 'ASNT', 'ASNB'], run: record },
  property: { outputs: [...JSON_XML, 'CSV', 'TXT'], run: property },
  synonyms: { outputs: [...JSON_XML, 'TXT'], run: synonyms },
  cids: { outputs: [...JSON_XML, 'TXT'], run: cids },
  sids: { outputs: [...JSON_XML, 'TXT'], run: sids },
  aids: { outputs: [...JSON_XML, 'TXT'], run: aids },
  assaysummary: { outputs: [...JSON_XML, 'CSV'], run: assaysummary },
  description: { outputs: JSON_XML, run: description },
  xrefs: { outputs: [...JSON_XML, 'TXT'], run: xrefs },
  conformers: { outputs: [...JSON_XML, 'TXT'], run: conformers },
};

export const UNSERVED_COMPOUND_OPS = ['classification', 'dates'];
