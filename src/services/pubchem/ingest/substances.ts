/**
 * Reads PubChem's Substance SD files (`Substance_*.sdf[.gz]`): PUBCHEM_SUBSTANCE_ID and _VERSION,
 * the depositor (PUBCHEM_EXT_DATASOURCE_NAME, _REGID), synonyms (PUBCHEM_SUBSTANCE_SYNONYM) and
 * the CIDs the structure standardized to (PUBCHEM_CID_ASSOCIATIONS: "CID type" per line).
 */
import type { ReadContext } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, baseName, listInputs, openInput } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { structureParts } from '../chem/record.js';
import { writeSdfRecord } from '../chem/sdf.js';
import type { SubstanceItem } from '../store/substances.js';
import { sdfRecords } from './sdf-stream.js';

const EXPECTED = 'PubChem Substance SD files (Substance_*.sdf[.gz])';

function isSubstanceFile(path: string): boolean {
  const name = baseName(path);
  return name.endsWith('.sdf') && name.startsWith('substance');
}

const lines = (v: string | undefined) =>
  (v ?? '')
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export async function* readSubstances(input: string, ctx: ReadContext): AsyncGenerator<Sourced<SubstanceItem>> {
  const files = (await listInputs(input)).filter((f) => isSubstanceFile(f.path));
  if (!files.length) throw new FormatError(`${input}: no substance files found; expected ${EXPECTED}`);
  const bytes = new ByteProgress(
    files.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );
  for (const f of files) {
    for await (const item of sdfRecords(openInput(f.path, bytes))) {
      if (ctx.signal.aborted) return;
      const place = { file: f.path, position: `line ${item.line}` };
      const rec = item.record;
      if (typeof rec === 'string') {
        ctx.skip(place, rec);
        continue;
      }
      const sid = Number(rec.tags.get('PUBCHEM_SUBSTANCE_ID') ?? NaN);
      if (!Number.isInteger(sid) || sid <= 0) {
        ctx.skip(place, 'no PUBCHEM_SUBSTANCE_ID tag');
        continue;
      }
      const source = rec.tags.get('PUBCHEM_EXT_DATASOURCE_NAME')?.trim() ?? '';
      const sourceId = rec.tags.get('PUBCHEM_EXT_DATASOURCE_REGID')?.trim() ?? '';
      const names = lines(rec.tags.get('PUBCHEM_SUBSTANCE_SYNONYM'));
      const cids: [number, number][] = [];
      for (const l of lines(rec.tags.get('PUBCHEM_CID_ASSOCIATIONS'))) {
        const [cid, type] = l.split(/\s+/).map(Number);
        if (Number.isInteger(cid) && (cid as number) > 0) cids.push([cid as number, Number.isInteger(type) ? (type as number) : 1]);
      }
      const deposited = structureParts(rec.molblock);
      const compound: Record<string, unknown>[] = [];
      if (typeof deposited !== 'string' && (deposited.atoms as { aid: number[] }).aid.length) compound.push({ id: { type: 0 }, ...deposited });
      for (const [cid, type] of cids) compound.push({ id: { type, id: { cid } } });
      const xref: Record<string, string>[] = [];
      const dburl = rec.tags.get('PUBCHEM_EXT_DATASOURCE_URL')?.trim();
      const sburl = rec.tags.get('PUBCHEM_EXT_SUBSTANCE_URL')?.trim();
      if (dburl) xref.push({ dburl });
      if (sburl) xref.push({ sburl });
      const record = {
        sid: { id: sid, version: Number(rec.tags.get('PUBCHEM_SUBSTANCE_VERSION') ?? 1) || 1 },
        source: { db: { name: source, source_id: { str: sourceId } } },
        ...(names.length ? { synonyms: names } : {}),
        ...(lines(rec.tags.get('PUBCHEM_SUBSTANCE_COMMENT')).length ? { comment: lines(rec.tags.get('PUBCHEM_SUBSTANCE_COMMENT')) } : {}),
        ...(xref.length ? { xref } : {}),
        ...(compound.length ? { compound } : {}),
      };
      yield { value: { sid, source, sourceId, names, cids, record: JSON.stringify(record), sdf: writeSdfRecord(rec.molblock, rec.tags) }, place };
    }
  }
}
