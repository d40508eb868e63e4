/** Operations of the assay domain. */
import { pcErrors } from '../errors.js';
import { outcomeType } from '../options.js';
import { asnXml } from '../output/asn.js';
import type { Output } from '../output/formats.js';
import { renderDoc, type Answer } from '../output/render.js';
import type { PugRequest } from '../request.js';
import type { Env, Subject } from '../resolve.js';
import type { AssayStore } from '../store/assays.js';
import { activityTable, identifierList, linkedList } from './common.js';

type AssaySubject = Extract<Subject, { domain: 'assay' }>;

async function existing(env: Env, s: AssaySubject): Promise<{ store: AssayStore; aids: number[] }> {
  const store = await env.data.assays();
  if (!store) throw pcErrors.noRecords('AID');
  const known = await store.known(s.ids);
  const aids = s.ids.filter((id) => known.has(id));
  if (!aids.length) throw pcErrors.noRecords('AID');
  return { store, aids };
}

async function description(env: Env, s: AssaySubject, req: PugRequest): Promise<Answer> {
  const { store, aids } = await existing(env, s);
  const rows = await store.assays(aids);
  const items = aids.map((aid) => JSON.parse(rows.get(aid)?.descr ?? '{}') as Record<string, unknown>);
  return renderDoc({ PC_AssayContainer: items }, req.output, req.options, { XML: () => asnXml('PC-AssayContainer', 'PC-AssaySubmit', items) });
}

async function aids(env: Env, s: AssaySubject, req: PugRequest): Promise<Answer> {
  return identifierList(env, 'AID', (await existing(env, s)).aids, req.output, req.options);
}

const linked = (to: 'sid' | 'cid') =>
  async function (env: Env, s: AssaySubject, req: PugRequest): Promise<Answer> {
    const { store, aids: found } = await existing(env, s);
    const outcome = outcomeType(req.options, to === 'sid' ? 'sids_type' : 'cids_type');
    const groups: [number, number[]][] = [];
    for (const aid of found) groups.push([aid, await store.linked('aid', aid, to, outcome)]);
    return linkedList(env, 'AID', to === 'sid' ? 'SID' : 'CID', groups, req.output, req.options, to === 'sid' ? 'SIDs' : 'CIDs');
  };

async function concise(env: Env, s: AssaySubject, req: PugRequest): Promise<Answer> {
  const { store, aids: found } = await existing(env, s);
  const rows = await store.activities('aid', found);
  if (!rows.length) throw pcErrors.notFound('No data found', 'No bioactivity rows are loaded for the given AID(s)');
  return activityTable(rows, await store.assays(found), req.output, req.options, false);
}

type Run = (env: Env, s: AssaySubject, req: PugRequest) => Promise<Answer>;
const JSON_XML: Output[] = ['JSON', 'JSONP', 'XML'];

export const ASSAY_OPS: Record<string, { outputs: Output[]; run: Run }> = {
  description: { outputs: JSON_XML, run: description },
  aids: { outputs: [...JSON_XML, 'TXT'], run: aids },
  sids: { outputs: [...JSON_XML, 'TXT'], run: linked('sid') },
  cids: { outputs: [...JSON_XML, 'TXT'], run: linked('cid') },
  concise: { outputs: [...JSON_XML, 'CSV'], run: concise },
};

export const UNSERVED_ASSAY_OPS = ['record', 'summary', 'targets', 'doseresponse', 'classification', 'dates'];
