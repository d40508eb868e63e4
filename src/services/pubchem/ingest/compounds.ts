/**
 * Reads PubChem's compound bulk files: `Compound_*.sdf.gz` (structures with PUBCHEM_* tags; what
 * the tags lack is computed), and the Extras `CID-Title`, `CID-Synonym-filtered` (or -unfiltered)
 * and `CID-SID` (tab-separated, optionally gzipped), plus saved PUG View records (`{"Record": ...}`
 * JSON). A file or a folder of them; files of other names are left alone.
 */
import type { ReadContext } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, baseName, listInputs, openInput } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { buildCompound } from '../chem/compound.js';
import { rdkit } from '../chem/rdkit.js';
import { subskeysEngine, type KeysOf } from '../chem/subskeys-engine.js';
import type { CompoundItem } from '../store/compounds.js';
import { readWholeJson } from './files.js';
import { tsvRows } from './sdf-stream.js';
import { sdfFileBatches } from './sdf-threads.js';
import { positiveInt } from './fields.js';

type Kind = 'sdf' | 'title' | 'synonyms' | 'sids' | 'pugview';

export function compoundFileKind(path: string): Kind | undefined {
  const name = baseName(path);
  if (name.endsWith('.sdf')) return name.startsWith('substance') ? undefined : 'sdf';
  if (name === 'cid-title') return 'title';
  if (name === 'cid-synonym-filtered' || name === 'cid-synonym-unfiltered') return 'synonyms';
  if (name === 'cid-sid') return 'sids';
  // PubChem's own Compound JSON files are full records, not PUG View.
  if (name.endsWith('.json') && !name.startsWith('compound')) return 'pugview';
  return undefined;
}

// A PUG View record is read whole; PubChem's largest are a few megabytes.
const MAX_VIEW_BYTES = 64 << 20;

const EXPECTED = 'PubChem Compound SD files (Compound_*.sdf[.gz]) and/or CID-Title, CID-Synonym-filtered, CID-SID, or PUG View JSON records';

export async function* readCompounds(input: string, ctx: ReadContext): AsyncGenerator<Sourced<CompoundItem>> {
  const files = (await listInputs(input)).filter((f) => compoundFileKind(f.path));
  if (!files.length) throw new FormatError(`${input}: no PubChem compound files found; expected ${EXPECTED}`);
  const bytes = new ByteProgress(
    files.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );
  // Records without PubChem's substructure keys get computed ones, where this build can compute
  // them; otherwise they load without (searches by their CID then say why). Asked for only when a
  // record needs RDKit: PubChem's own files never do.
  let engine: Promise<KeysOf> | undefined;
  const keysOf = () => (engine ??= subskeysEngine());
  for (let i = 0; i < files.length; i++) {
    const f = files[i] as (typeof files)[number];
    const kind = compoundFileKind(f.path) as Kind;
    const place = (position: string | number) => ({ file: f.path, position });
    if (kind === 'sdf') {
      // A run of SD files goes to the reading threads together, so that the next is read ahead.
      const run = [f.path];
      while (i + 1 < files.length && compoundFileKind((files[i + 1] as (typeof files)[number]).path) === 'sdf') run.push((files[++i] as (typeof files)[number]).path);
      const counts = new Map<string, { good: number; bad: number }>();
      for await (const { path, batch } of sdfFileBatches(run, bytes)) {
        const at = (line: number) => ({ file: path, position: `line ${line}` });
        const count = counts.get(path) ?? { good: 0, bad: 0 };
        counts.set(path, count);
        for (const p of batch) {
          if (ctx.signal.aborted) return;
          if (p.t === 'skip') {
            ctx.skip(at(p.line), p.reason);
            if (!p.molfile && ++count.bad >= 100 && count.good === 0) throw new FormatError(`${path}: the first 100 records are not molfiles; expected ${EXPECTED}`);
            continue;
          }
          const c = p.t === 'compound' ? p.c : buildCompound(await rdkit(), p.cid, p.rec, await keysOf());
          if (typeof c === 'string') {
            ctx.skip(at(p.line), `CID ${p.t === 'rdkit' ? p.cid : '?'}: ${c}`);
            continue;
          }
          // Reported as the loader reports records (file and place), though the compound itself loads.
          for (const note of c.notes) ctx.skip(at(p.line), `CID ${c.cid}: ${note}; the compound is loaded without substructure keys`);
          count.good++;
          yield { value: { kind: 'compound', c }, place: at(p.line) };
        }
      }
      continue;
    }
    if (kind === 'pugview') {
      if (f.size > MAX_VIEW_BYTES) {
        ctx.skip(place('file'), `larger than ${MAX_VIEW_BYTES >> 20} MB: not read as a PUG View record`);
        continue;
      }
      const doc = await readWholeJson(f.path, bytes);
      const rec = (doc as { Record?: { RecordType?: string; RecordNumber?: unknown } } | undefined)?.Record;
      const cid = positiveInt(String(rec?.RecordNumber ?? ''));
      if (!rec || rec.RecordType !== 'CID' || cid === undefined) {
        ctx.skip(place('file'), 'not a PUG View compound record ({"Record": {"RecordType": "CID", "RecordNumber": ...}})');
        continue;
      }
      yield { value: { kind: 'annotation', cid, doc: JSON.stringify(doc) }, place: place('file') };
      continue;
    }
    // Tab-separated Extras: one row per line; synonyms and SIDs are grouped by consecutive CID.
    let group: { cid: number; line: number; values: string[] } | undefined;
    const flush = (): Sourced<CompoundItem> | undefined => {
      if (!group) return undefined;
      const g = group;
      group = undefined;
      if (kind === 'synonyms') return { value: { kind: 'synonyms', cid: g.cid, names: g.values }, place: place(`line ${g.line}`) };
      const sids: [number, number][] = g.values.map((v) => {
        const [sid, type] = v.split('\t');
        return [Number(sid), Number(type ?? 1)];
      });
      return { value: { kind: 'sids', cid: g.cid, sids }, place: place(`line ${g.line}`) };
    };
    for await (const { no, cells } of tsvRows(openInput(f.path, bytes))) {
      if (ctx.signal.aborted) return;
      const cid = positiveInt(cells[0]);
      const value = cells[1];
      if (cid === undefined || value === undefined || value === '') {
        ctx.skip(place(`line ${no}`), 'expected a CID and a value separated by a tab');
        continue;
      }
      if (kind === 'title') {
        yield { value: { kind: 'title', cid, title: value }, place: place(`line ${no}`) };
        continue;
      }
      if (kind === 'sids') {
        const sid = positiveInt(value);
        const type = cells[2] === undefined ? 1 : positiveInt(cells[2]);
        if (sid === undefined || type === undefined) {
          ctx.skip(place(`line ${no}`), 'expected CID, SID and an optional type, all positive integers');
          continue;
        }
      }
      if (group && group.cid !== cid) {
        const out = flush();
        if (out) yield out;
      }
      group ??= { cid, line: no, values: [] };
      group.values.push(kind === 'sids' ? `${value}\t${cells[2] ?? 1}` : value);
    }
    const last = flush();
    if (last) yield last;
  }
}
