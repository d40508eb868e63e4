/** Operations of the substance domain. */
import { pcErrors } from '../errors.js';
import { imageSize, linkTypes, outcomeType } from '../options.js';
import { asnXml } from '../output/asn.js';
import { recordsAsn } from '../output/asnt-asnb.js';
import { txtLines, type Output } from '../output/formats.js';
import { answer, renderDoc, type Answer } from '../output/render.js';
import type { PugRequest } from '../request.js';
import type { Env, Subject } from '../resolve.js';
import type { SubstanceStore } from '../store/substances.js';
import { activityTable, identifierList, linkedList } from './common.js';

type SubstanceSubject = Extract<Subject, { domain: 'substance' }>;

async function existing(env: Env, s: SubstanceSubject): Promise<{ store: SubstanceStore; sids: number[] }> {
  const store = await env.data.substances();
  if (!store) throw pcErrors.noRecords('SID');
  const known = await store.known(s.ids);
  const sids = s.ids.filter((id) => known.has(id));
  if (!sids.length) throw pcErrors.noRecords('SID');
  return { store, sids };
}

async function record(env: Env, s: SubstanceSubject, req: PugRequest): Promise<Answer> {
  const { store, sids } = await existing(env, s);
  const rows = await store.rows(sids);
  if (req.output === 'SDF') return answer('SDF', sids.map((sid) => rows.get(sid)?.sdf ?? '').join(''));
  if (req.output === 'PNG') {
    const sdf = rows.get(sids[0] as number)?.sdf ?? '';
    const png = await env.structures.depict(sdf.slice(0, sdf.indexOf('M  END') + 6), imageSize(req.options));
    if (!png?.atoms) throw pcErrors.notFound('No structure', `SID ${sids[0]} has no structure to depict`);
    return answer('PNG', png.png);
  }
  const records = sids.map((sid) => JSON.parse(rows.get(sid)?.record ?? '{}') as Record<string, unknown>);
  if (req.output === 'ASNT' || req.output === 'ASNB') return recordsAsn('PC-Substances', records, req.output);
  return renderDoc({ PC_Substances: records }, req.output, req.options, { XML: () => asnXml('PC-Substances', 'PC-Substance', records) });
}

async function synonyms(env: Env, s: SubstanceSubject, req: PugRequest): Promise<Answer> {
  const { store, sids } = await existing(env, s);
  const syn = await store.synonyms(sids);
  const info = sids.filter((sid) => syn.get(sid)?.length).map((sid) => ({ SID: sid, Synonym: syn.get(sid) as string[] }));
  if (!info.length) throw pcErrors.notFound('No synonyms found', 'None of the given SIDs has synonyms');
  return renderDoc({ InformationList: { Information: info } }, req.output, req.options, { TXT: () => txtLines(info.flatMap((i) => i.Synonym)) });
}

async function sids(env: Env, s: SubstanceSubject, req: PugRequest): Promise<Answer> {
  return identifierList(env, 'SID', (await existing(env, s)).sids, req.output, req.options);
}

async function cids(env: Env, s: SubstanceSubject, req: PugRequest): Promise<Answer> {
  const { store, sids: found } = await existing(env, s);
  const types = linkTypes(req.options, 'cids_type');
  const groups: [number, number[]][] = [];
  for (const sid of found) groups.push([sid, await store.cidsOf(sid, types)]);
  return linkedList(env, 'SID', 'CID', groups, req.output, req.options, 'CIDs');
}

async function aids(env: Env, s: SubstanceSubject, req: PugRequest): Promise<Answer> {
  const found = s.ids;
  const assays = await env.data.assays();
  const outcome = outcomeType(req.options, 'aids_type');
  const groups: [number, number[]][] = [];
  for (const sid of found) groups.push([sid, assays ? await assays.linked('sid', sid, 'aid', outcome) : []]);
  return linkedList(env, 'SID', 'AID', groups, req.output, req.options, 'AIDs');
}

async function assaysummary(env: Env, s: SubstanceSubject, req: PugRequest): Promise<Answer> {
  const found = s.ids;
  const assays = await env.data.assays();
  const rows = assays ? await assays.activities('sid', found) : [];
  if (!assays || !rows.length) throw pcErrors.notFound('No data found', 'No bioassay results are loaded for the given SID(s)');
  return activityTable(rows, await assays.assays([...new Set(rows.map((r) => r.aid))]), req.output, req.options, true);
}

type Run = (env: Env, s: SubstanceSubject, req: PugRequest) => Promise<Answer>;
const JSON_XML: Output[] = ['JSON', 'JSONP', 'XML'];

export const SUBSTANCE_OPS: Record<string, { outputs: Output[]; run: Run }> = {
  record: { outputs: [...JSON_XML, 'SDF', 'PNG', 'ASNT', 'ASNB'], run: record },
  synonyms: { outputs: [...JSON_XML, 'TXT'], run: synonyms },
  sids: { outputs: [...JSON_XML, 'TXT'], run: sids },
  cids: { outputs: [...JSON_XML, 'TXT'], run: cids },
  aids: { outputs: [...JSON_XML, 'TXT'], run: aids },
  assaysummary: { outputs: [...JSON_XML, 'CSV'], run: assaysummary },
};

export const UNSERVED_SUBSTANCE_OPS = ['classification', 'xrefs', 'description', 'dates'];
