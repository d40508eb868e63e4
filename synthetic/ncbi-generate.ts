/**
 * Synthetic NCBI Gene bulk data for tests and benchmarks. Everything in it is generated: GeneIDs
 * from 900,000,000 up (beyond those NCBI has issued), symbols GEN<n>, descriptions drawn from a small
 * vocabulary, taxa cycling over the spec's organisms, Modification_date 20261101.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';

export const GENE_INFO_HEADER =
  '#tax_id\tGeneID\tSymbol\tLocusTag\tSynonyms\tdbXrefs\tchromosome\tmap_location\tdescription\ttype_of_gene\tSymbol_from_nomenclature_authority\tFull_name_from_nomenclature_authority\tNomenclature_status\tOther_designations\tModification_date\tFeature_type';

const TAXA = [9606, 9606, 9606, 10090, 10116, 7955, 7227, 6239, 559292, 3702];
const WORDS = ['kinase', 'receptor', 'transporter', 'binding', 'protein', 'factor', 'domain', 'channel', 'subunit', 'regulator', 'zinc', 'finger', 'ligase', 'synthase', 'oxidase'];
const TYPES = ['protein-coding', 'protein-coding', 'protein-coding', 'ncRNA', 'pseudo'];

export const FIRST_ID = 900_000_000;

export function geneIdFor(i: number): number {
  return FIRST_ID + i;
}

export function symbolFor(i: number): string {
  return `GEN${i}`;
}

/** One gene_info line of synthetic gene `i`. */
export function geneInfoLine(i: number): string {
  const tax = TAXA[i % TAXA.length] as number;
  const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length] as string;
  const desc = `${w(1)} ${w(2)} ${w(3)} ${i % 97}`;
  const chr = String((i % 22) + 1);
  const type = TYPES[i % TYPES.length] as string;
  const syn = i % 3 === 0 ? `ALIAS${i}|G${i}X` : '-';
  return [tax, geneIdFor(i), symbolFor(i), '-', syn, `HGNC:HGNC:${100000 + i}`, chr, `${chr}q${(i % 30) + 1}`, desc, type, symbolFor(i), desc, 'O', `${w(4)} ${w(5)}`, '20261101', '-'].join('\t');
}

/** Writes `n` synthetic genes as gene_info (gzipped when the path ends in .gz). */
export async function writeGeneInfo(path: string, n: number, start = 0): Promise<void> {
  const file = createWriteStream(path);
  const gz = path.endsWith('.gz') ? createGzip({ level: 1 }) : undefined;
  const out = gz ?? file;
  if (gz) gz.pipe(file);
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  await write(GENE_INFO_HEADER + '\n');
  let buf = '';
  for (let i = start; i < start + n; i++) {
    buf += geneInfoLine(i) + '\n';
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = '';
    }
  }
  await write(buf);
  out.end();
  await once(file, 'close');
}
