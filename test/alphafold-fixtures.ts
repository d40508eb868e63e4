/**
 * Fixtures of the AlphaFold DB tests: generated entries (isoforms, fragments, several versions, a
 * model without a confidence file, a metadata table) written in the bulk formats, and a PNG reader.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, inflateSync } from 'node:zlib';
import { runLoad, type LoadOptions, type LoadResult } from '../src/core/ingest/load.js';
import type { Generations } from '../src/core/store/generations.js';
import { alphafold } from '../src/services/alphafold/index.js';
import { entryFiles, generateEntry, syntheticSequence, tarOf, type EntrySpec, type GeneratedEntry } from '../synthetic/alphafold-generate.js';
import { tempDir, type OpenedStore } from './helpers/stores.js';

const ds = alphafold.datasets[0];
if (!ds) throw new Error('alphafold has no dataset');
export const AF_DATASET = ds;
export const AF_DEMO = ds.demo as string;

export function loadAf(store: OpenedStore, generations: Generations, input = AF_DEMO, opts: LoadOptions = {}): Promise<LoadResult> {
  return runLoad(store.db, generations, AF_DATASET, input, opts);
}

const base = (acc: string, seq: string, extra: Partial<EntrySpec> = {}): EntrySpec => ({
  accession: acc,
  uniprotId: `${acc.replace(/-.*/, '')}_GENERATED`,
  description: `Generated protein ${acc}`,
  gene: `GEN${acc.slice(-3)}`,
  taxId: 9606,
  organism: 'Homo sapiens',
  sequence: seq,
  ...extra,
});

/** Made-up accessions in UniProt's format; their sequences and structures are generated. */
export const CANON = 'Q9ZZZ1';
export const ISO = 'Q9ZZZ1-2';
export const BIG = 'Q9ZZZ2';
export const VERS = 'Q9ZZZ3';
export const NOCONF = 'Q9ZZZ4';

export interface Fixture {
  dir: string;
  entries: Record<string, GeneratedEntry>;
  canonSeq: string;
}

/**
 * One input folder: a proteome tar (canonical + isoform + fragments), per-entry files of two
 * versions, a model with only its PAE file, accession_ids.csv and a TSV metadata table.
 */
export function writeFixture(): Fixture {
  const dir = tempDir('biomirror-af-');
  const canonSeq = syntheticSequence(60, 1);
  const entries: Record<string, GeneratedEntry> = {};
  entries.canon = generateEntry(base(CANON, canonSeq));
  entries.iso = generateEntry(base(ISO, syntheticSequence(48, 2)));
  entries.big1 = generateEntry(base(BIG, syntheticSequence(40, 3), { fragment: 1, start: 1 }));
  entries.big2 = generateEntry(base(BIG, syntheticSequence(40, 4), { fragment: 2, start: 21 }));
  entries.v3 = generateEntry(base(VERS, syntheticSequence(30, 5), { version: 3 }));
  entries.v4 = generateEntry(base(VERS, syntheticSequence(30, 5), { version: 4 }));
  entries.noconf = generateEntry(base(NOCONF, syntheticSequence(25, 6)));
  const tar = tarOf([entries.canon, entries.iso, entries.big1, entries.big2].flatMap((e) => entryFiles(e as GeneratedEntry)));
  writeFileSync(join(dir, 'proteome-tax_id-9606-0_v4.tar'), tar);
  const loose = join(dir, 'loose');
  mkdirSync(loose);
  for (const e of [entries.v3, entries.v4]) for (const f of entryFiles(e as GeneratedEntry)) writeFileSync(join(loose, f.name), f.bytes);
  for (const f of entryFiles(entries.noconf as GeneratedEntry)) if (!f.name.includes('confidence')) writeFileSync(join(loose, f.name), f.bytes);
  writeFileSync(join(dir, 'accession_ids.csv'), `${CANON},1,60,AF-${CANON}-F1,4\n${VERS},1,30,AF-${VERS}-F1,4\n`);
  // The metadata table names the canonical entry's gene differently and marks it reviewed.
  const cols = ['entryId', 'uniprotAccession', 'gene', 'organismScientificName', 'taxId', 'globalMetricValue', 'fractionPlddtVeryHigh', 'isReviewed', 'sequenceLength', 'allVersions'];
  const row = [`AF-${CANON}-F1`, CANON, 'TABLEGENE', 'Homo sapiens', '9606', '77.5', '0.25', 'true', '60', '[1,2,3,4]'];
  writeFileSync(join(dir, 'metadata.tsv'), `${cols.join('\t')}\n${row.join('\t')}\n`);
  return { dir, entries, canonSeq };
}

export function gz(text: string): Buffer {
  return gzipSync(text);
}

export interface Png {
  width: number;
  height: number;
  /** RGB at (x, y). */
  at(x: number, y: number): [number, number, number];
}

/** Reads an 8-bit RGB PNG (every filter type). */
export function readPng(b: Buffer): Png {
  if (!b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) throw new Error('not a PNG');
  let i = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (i < b.length) {
    const len = b.readUInt32BE(i);
    const type = b.toString('latin1', i + 4, i + 8);
    const data = b.subarray(i + 8, i + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 2) throw new Error('not 8-bit RGB');
    }
    if (type === 'IDAT') idat.push(data);
    i += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  const px = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x] as number;
      const a = x >= 3 ? (px[y * stride + x - 3] as number) : 0;
      const up = y > 0 ? (px[(y - 1) * stride + x] as number) : 0;
      const c = x >= 3 && y > 0 ? (px[(y - 1) * stride + x - 3] as number) : 0;
      let pred = 0;
      if (f === 1) pred = a;
      else if (f === 2) pred = up;
      else if (f === 3) pred = (a + up) >> 1;
      else if (f === 4) {
        const p = a + up - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? up : c;
      }
      px[y * stride + x] = (v + pred) & 0xff;
    }
  }
  return { width, height, at: (x, y) => [px[y * stride + x * 3] as number, px[y * stride + x * 3 + 1] as number, px[y * stride + x * 3 + 2] as number] };
}
