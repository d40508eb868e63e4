/**
 * Reads PubChem's 3D conformer files: `Compound_3D/01_conf_per_cmpd/SDF/*.sdf.gz`, one MMFF94s
 * conformer per compound with its PUBCHEM_* shape, feature and conformer-model tags. A file or a
 * folder of them; other files are left alone. Records without a CID or with 2D coordinates only
 * are skipped with the reason.
 */
import type { ReadContext } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, baseName, listInputs, openInput } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { conformerFromSdf, type Conformer } from '../chem/conformer3d.js';
import { sdfRecords } from './sdf-stream.js';
import { positiveInt } from './fields.js';

const EXPECTED = 'PubChem Compound_3D SD files (01_conf_per_cmpd/SDF/*.sdf[.gz])';

const isSdf = (path: string) => {
  const name = baseName(path);
  return name.endsWith('.sdf') && !name.startsWith('substance');
};

export async function* readConformers(input: string, ctx: ReadContext): AsyncGenerator<Sourced<Conformer>> {
  const files = (await listInputs(input)).filter((f) => isSdf(f.path));
  if (!files.length) throw new FormatError(`${input}: no SD files found; expected ${EXPECTED}`);
  const bytes = new ByteProgress(
    files.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );
  for (const f of files) {
    let good = 0;
    let bad = 0;
    for await (const item of sdfRecords(openInput(f.path, bytes))) {
      if (ctx.signal.aborted) return;
      const place = { file: f.path, position: `line ${item.line}` };
      const rec = item.record;
      const fail = (reason: string) => {
        ctx.skip(place, reason);
        if (++bad >= 100 && good === 0) throw new FormatError(`${f.path}: none of the first 100 records is a 3D conformer; expected ${EXPECTED}`);
      };
      if (typeof rec === 'string') {
        fail(rec);
        continue;
      }
      const cid = positiveInt(rec.tags.get('PUBCHEM_COMPOUND_CID')) ?? positiveInt(rec.molblock.split('\n', 1)[0]);
      if (cid === undefined) {
        fail('no PUBCHEM_COMPOUND_CID tag and no CID on the first line');
        continue;
      }
      const c = conformerFromSdf(cid, rec);
      if (typeof c === 'string') {
        fail(`CID ${cid}: ${c}`);
        continue;
      }
      good++;
      yield { value: c, place };
    }
  }
}
