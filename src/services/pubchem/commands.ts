/**
 * `biomirror pubchem subskeys <in.sdf[.gz]> <out.sdf[.gz]>`: copies a Compound SD file, giving each
 * record without PubChem's substructure keys computed ones (a PUBCHEM_CACTVS_SUBSKEYS tag, listed in
 * BIOMIRROR_COMPUTED); keys a record lists as computed are computed again, PubChem's own are kept
 * as they are. The demo data uses it.
 *
 * `biomirror pubchem sdf <CID-SMILES file> <out.sdf[.gz]> [heavy]`: writes a PubChem-style Compound SD file
 * from PubChem's CID-SMILES format (CID, tab, SMILES; an optional third column is taken as the
 * IUPAC name). Structures get explicit hydrogens and 2D coordinates, and the PUBCHEM_* tags are
 * computed with RDKit (the substructure keys where this build computes them) and listed in
 * BIOMIRROR_COMPUTED. The demo data and the benchmark use it.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { openInput } from '../../core/ingest/inputs.js';
import type { ServiceCommand } from '../types.js';
import { COMPUTED_TAG, describe, heavyMolecule, molfileWithHydrogens } from './chem/compound.js';
import { tagsFromProps } from './chem/properties.js';
import { parseMol, rdkit } from './chem/rdkit.js';
import { writeSdfRecord } from './chem/sdf.js';
import { SUBSKEYS_TAG, encodeSubskeys } from './chem/subskeys-codec.js';
import { subskeysEngine } from './chem/subskeys-engine.js';
import { sdfRecords, tsvRows } from './ingest/sdf-stream.js';

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

function openOutput(output: string): { out: Writable; closed: Promise<unknown> } {
  const file = createWriteStream(output);
  const gz = output.endsWith('.gz') ? createGzip() : undefined;
  if (gz) gz.pipe(file);
  return { out: gz ?? file, closed: once(file, 'close') };
}

export async function smilesToSdf(input: string, output: string, say: (line: string) => void, heavy = false): Promise<{ written: number; failed: number }> {
  const r = await rdkit();
  const keysOf = await subskeysEngine();
  const { out, closed } = openOutput(output);
  let written = 0;
  let failed = 0;
  for await (const { no, cells } of tsvRows(openInput(input))) {
    const [cidText, smiles, iupac] = cells;
    const cid = Number(cidText);
    const mol = smiles && Number.isInteger(cid) && cid > 0 ? parseMol(r, smiles) : undefined;
    if (!mol) {
      failed++;
      say(`line ${no}: skipped, expected a CID and a SMILES that RDKit can read`);
      continue;
    }
    try {
      const molblock = molfileWithHydrogens(r, mol, String(cid), heavy);
      const tags = new Map<string, string>([['PUBCHEM_COMPOUND_CID', String(cid)]]);
      if (iupac) tags.set('PUBCHEM_IUPAC_NAME', iupac);
      const s = molblock ? describe(r, cid, molblock, tags, mol, keysOf) : 'no molfile';
      if (!molblock || typeof s === 'string') {
        failed++;
        say(`line ${no}: skipped, ${typeof s === 'string' ? s : 'no molfile'}`);
        continue;
      }
      const computed = tagsFromProps(s.props).filter(([t]) => !tags.has(t));
      const all: [string, string][] = [...tags, ...computed, [COMPUTED_TAG, computed.map(([t]) => t).join('\n')]];
      await write(out, writeSdfRecord(molblock, all));
      written++;
    } finally {
      mol.delete();
    }
  }
  out.end();
  await closed;
  return { written, failed };
}

// Where PubChem's files put the keys: after the rotatable bond count.
const KEYS_AFTER = 'PUBCHEM_CACTVS_ROTATABLE_BOND';

const computedTags = (tags: ReadonlyMap<string, string>) => (tags.get(COMPUTED_TAG) ?? '').split('\n').filter((t) => t.trim() !== '');

/** Tags with the computed keys: in place of earlier computed ones, or in PubChem's place, and listed among the computed tags. */
function withKeys(tags: ReadonlyMap<string, string>, value: string): [string, string][] {
  if (tags.has(SUBSKEYS_TAG)) return [...tags].map(([k, v]) => [k, k === SUBSKEYS_TAG ? value : v]);
  const out: [string, string][] = [];
  for (const [k, v] of tags) {
    if (k === COMPUTED_TAG) continue;
    out.push([k, v]);
    if (k === KEYS_AFTER) out.push([SUBSKEYS_TAG, value]);
  }
  if (!tags.has(KEYS_AFTER)) out.push([SUBSKEYS_TAG, value]);
  out.push([COMPUTED_TAG, [...computedTags(tags), SUBSKEYS_TAG].join('\n')]);
  return out;
}

export async function addSubskeys(input: string, output: string, say: (line: string) => void): Promise<{ computed: number; kept: number; failed: number } | undefined> {
  const keysOf = await subskeysEngine();
  const r = await rdkit();
  const { out, closed } = openOutput(output);
  let computed = 0;
  let kept = 0;
  let failed = 0;
  for await (const { line, record } of sdfRecords(openInput(input))) {
    if (typeof record === 'string') {
      failed++;
      say(`line ${line}: left out, ${record}`);
      continue;
    }
    if (record.tags.has(SUBSKEYS_TAG) && !computedTags(record.tags).includes(SUBSKEYS_TAG)) {
      kept++;
      await write(out, writeSdfRecord(record.molblock, record.tags));
      continue;
    }
    const mol = heavyMolecule(r, record.molblock);
    const keys = mol ? keysOf(mol) : 'RDKit cannot read the structure';
    mol?.delete();
    if (typeof keys === 'string') {
      failed++;
      say(`line ${line}: copied without keys, ${keys}`);
      await write(out, writeSdfRecord(record.molblock, record.tags));
      continue;
    }
    computed++;
    await write(out, writeSdfRecord(record.molblock, withKeys(record.tags, encodeSubskeys(keys))));
  }
  out.end();
  await closed;
  return { computed, kept, failed };
}

export const pubchemCommands: Record<string, ServiceCommand> = {
  subskeys: {
    usage: "<in.sdf[.gz]> <out.sdf[.gz]>   copy a Compound SD file, computing the substructure keys of records without PubChem's PUBCHEM_CACTVS_SUBSKEYS",
    async run(args, _ctx, out) {
      const [input, output] = args;
      if (!input || !output || args.length > 2) {
        out('usage: biomirror pubchem subskeys <in.sdf[.gz]> <out.sdf[.gz]>');
        return 2;
      }
      try {
        const done = await addSubskeys(input, output, out);
        if (!done) return 1;
        out(`${output}: keys computed for ${done.computed} records, ${done.kept} had PubChem's${done.failed ? `, ${done.failed} without keys` : ''}`);
        return 0;
      } catch (err) {
        out(`biomirror pubchem subskeys: ${(err as Error).message}`);
        return 1;
      }
    },
  },
  sdf: {
    usage: '<CID-SMILES file> <out.sdf[.gz]> [heavy]   write a Compound SD file with computed PUBCHEM_* tags (heavy: no explicit hydrogens, quicker layout)',
    async run(args, _ctx, out) {
      const [input, output, mode] = args;
      if (!input || !output || args.length > 3 || (mode !== undefined && mode !== 'heavy')) {
        out('usage: biomirror pubchem sdf <CID-SMILES file> <out.sdf[.gz]> [heavy]');
        return 2;
      }
      try {
        const { written, failed } = await smilesToSdf(input, output, out, mode === 'heavy');
        out(`${output}: ${written} compounds written${failed ? `, ${failed} lines skipped` : ''}`);
        return failed && !written ? 1 : 0;
      } catch (err) {
        out(`biomirror pubchem sdf: ${(err as Error).message}`);
        return 1;
      }
    },
  },
};
