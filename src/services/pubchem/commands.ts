/**
 * `biomirror pubchem sdf <CID-SMILES file> <out.sdf[.gz]> [heavy]`: writes a PubChem-style Compound SD file
 * from PubChem's CID-SMILES format (CID, tab, SMILES; an optional third column is taken as the
 * IUPAC name). Structures get explicit hydrogens and 2D coordinates, and the PUBCHEM_* tags are
 * computed with RDKit and listed in BIOMIRROR_COMPUTED. The demo data and the benchmark use it.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { openInput } from '../../core/ingest/inputs.js';
import type { ServiceCommand } from '../types.js';
import { COMPUTED_TAG, describe, molfileWithHydrogens } from './chem/compound.js';
import { tagsFromProps } from './chem/properties.js';
import { parseMol, rdkit } from './chem/rdkit.js';
import { writeSdfRecord } from './chem/sdf.js';
import { tsvRows } from './ingest/sdf-stream.js';

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

export async function smilesToSdf(input: string, output: string, say: (line: string) => void, heavy = false): Promise<{ written: number; failed: number }> {
  const r = await rdkit();
  const file = createWriteStream(output);
  const gz = output.endsWith('.gz') ? createGzip() : undefined;
  if (gz) gz.pipe(file);
  const out: Writable = gz ?? file;
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
      const s = molblock ? describe(r, cid, molblock, tags, mol) : 'no molfile';
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
  await once(file, 'close');
  return { written, failed };
}

export const pubchemCommands: Record<string, ServiceCommand> = {
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
