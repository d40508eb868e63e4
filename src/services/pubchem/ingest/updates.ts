/**
 * PubChem's updates: `Compound/Daily/<date>/` and `Compound/Weekly/<date>/` (and the same under
 * `Substance/`) hold the SD files of the records added or changed since the previous one, and
 * `killed-CIDs` (`killed-SIDs`) lists the records withdrawn, one id per line. An update of compounds
 * may also bring newer Extras (CID-Title, CID-Synonym-filtered, CID-SID): each file kind replaces
 * its own part of a compound, so an SD-only update keeps the names. Assays and 3D conformers are
 * published without a withdrawal list: their updates add and replace only (the conformers take a
 * `killed-CIDs` list too, to drop the 3D records of withdrawn compounds).
 */
import type { ReadContext } from '../../../core/ingest/dataset.js';
import { baseName, lines, openInput } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Deletions, Updates } from '../../../core/ingest/updates.js';
import type { Conformer } from '../chem/conformer3d.js';
import type { AssayItem } from '../store/assays.js';
import { renameCompounds, type CompoundItem } from '../store/compounds.js';
import type { SubstanceItem } from '../store/substances.js';

/** A `killed-CIDs` or `killed-SIDs` file: one positive id per line. */
function killedList(name: string): Deletions {
  return {
    file: (path) => baseName(path) === name,
    async *read(path: string, ctx: ReadContext) {
      for await (const { line, no } of lines(openInput(path))) {
        const v = line.trim();
        if (!v) continue;
        if (/^\d{1,15}$/.test(v) && Number(v) > 0) yield { id: Number(v), place: { file: path, position: no } };
        else ctx.skip({ file: path, position: `line ${no}` }, `"${v.slice(0, 40)}" is not an id`);
      }
    },
  };
}

const cidOf = (v: CompoundItem) => (v.kind === 'compound' ? v.c.cid : v.cid);

export const compoundUpdates: Updates<Sourced<CompoundItem>> = {
  noun: 'compounds',
  parts: {
    compound: { compounds: 'cid', lookup: 'cid', structures: 'cid' },
    title: { titles: 'cid' },
    synonyms: { synonyms: 'cid' },
    sids: { cid_sids: 'cid' },
    annotation: { annotations: 'cid' },
  },
  key: ({ value }) => ({ part: value.kind, id: cidOf(value) }),
  deletions: killedList('killed-cids'),
  async remove(tx, t, part, ids) {
    if (part === 'title' || part === 'synonyms') await renameCompounds(tx, t, part, ids as number[]);
  },
};

export const substanceUpdates: Updates<Sourced<SubstanceItem>> = {
  noun: 'substances',
  parts: { substance: { substances: 'sid', names: 'sid', cids: 'sid' } },
  key: ({ value }) => ({ part: 'substance', id: value.sid }),
  deletions: killedList('killed-sids'),
};

export const assayUpdates: Updates<Sourced<AssayItem>> = {
  noun: 'assays',
  parts: { assay: { assays: 'aid' }, activity: { activities: 'aid' } },
  key: ({ value }) => (value.kind === 'assay' ? { part: 'assay', id: value.aid } : { part: 'activity', id: value.a.aid }),
};

export const conformerUpdates: Updates<Sourced<Conformer>> = {
  noun: 'conformers',
  parts: { conformer: { conformers: 'cid' } },
  key: ({ value }) => ({ part: 'conformer', id: value.cid }),
  deletions: killedList('killed-cids'),
};
