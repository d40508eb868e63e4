/**
 * Compound SD files at any size for the load benchmark, streamed: the real PubChem records of
 * test/fixtures/pubchem/real-subskeys.sdf.gz (molfiles and PUBCHEM_* tags as PubChem wrote them,
 * among them PUBCHEM_CACTVS_SUBSKEYS) repeated under GENERATED CIDs (from GENERATED_CID_BASE + 1,
 * past any CID PubChem has issued). Records of 2008 lack tags that today's files carry on every
 * record; to load like today's files they get GENERATED values, computed once per template by
 * RDKit: PUBCHEM_IUPAC_INCHI and PUBCHEM_IUPAC_INCHIKEY (standard InChI). Each record names the
 * tags added in `BIOMIRROR_BENCH_GENERATED`.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import { join } from 'node:path';
import { ROOT } from './root.js';
import { GENERATED_CID_BASE } from './pubchem-keys-generate.js';

export const REAL_RECORDS = join(ROOT, 'test/fixtures/pubchem/real-subskeys.sdf.gz');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const dist = (p: string): Promise<Any> => import(join(ROOT, 'dist', p));

const writeSdfRecord = (molblock: string, tags: [string, string][]): string => {
  let s = molblock.endsWith('\n') ? molblock : molblock + '\n';
  for (const [k, v] of tags) s += `> <${k}>\n${v}\n\n`;
  return s + '$$$$\n';
};

interface Template {
  /** Molfile without its first line (the CID). */
  body: string;
  tags: [string, string][];
}

/** The real records as templates, with the identity tags today's files carry filled in. */
export async function templates(): Promise<Template[]> {
  const r = await (await dist('services/pubchem/chem/rdkit.js')).rdkit();
  const { sdfRecords } = await dist('services/pubchem/ingest/sdf-stream.js');
  const out: Template[] = [];
  for await (const item of sdfRecords(createReadStream(REAL_RECORDS).pipe(createGunzip())) as AsyncIterable<{ record: string | { molblock: string; tags: Map<string, string> } }>) {
    if (typeof item.record === 'string') continue;
    const { molblock, tags } = item.record;
    const added: string[] = [];
    if (!tags.has('PUBCHEM_IUPAC_INCHI') || !tags.has('PUBCHEM_IUPAC_INCHIKEY')) {
      const mol = r.get_mol(molblock);
      if (!mol) continue;
      try {
        const inchi = mol.get_inchi();
        if (!inchi) continue;
        tags.set('PUBCHEM_IUPAC_INCHI', inchi);
        tags.set('PUBCHEM_IUPAC_INCHIKEY', r.get_inchikey_for_inchi(inchi));
        added.push('PUBCHEM_IUPAC_INCHI', 'PUBCHEM_IUPAC_INCHIKEY');
      } finally {
        mol.delete();
      }
    }
    const list = [...tags].filter(([k]) => k !== 'PUBCHEM_COMPOUND_CID');
    if (added.length) list.push(['BIOMIRROR_BENCH_GENERATED', added.join('\n')]);
    out.push({ body: molblock.slice(molblock.indexOf('\n') + 1), tags: list });
  }
  return out;
}

/** Writes `count` records (CIDs GENERATED_CID_BASE + first ... ) to a gzipped SD file. */
export async function writeReplicatedSdf(path: string, first: number, count: number, tpl: Template[]): Promise<number> {
  const gz = createGzip({ level: 1 });
  const out = createWriteStream(path);
  gz.pipe(out);
  let chunk = '';
  for (let i = 0; i < count; i++) {
    const n = first + i;
    const cid = GENERATED_CID_BASE + n;
    const t = tpl[(n * 2654435761) % tpl.length] as Template;
    chunk += writeSdfRecord(`${cid}\n${t.body}`, [['PUBCHEM_COMPOUND_CID', String(cid)], ...t.tags]);
    if (chunk.length > 1 << 20) {
      if (!gz.write(chunk)) await once(gz, 'drain');
      chunk = '';
    }
  }
  gz.end(chunk);
  await once(out, 'close');
  return count;
}
