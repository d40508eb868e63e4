import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { crc64, md5 } from '../src/services/alphafold/checksum.js';
import { categoryLetter, categoryName, plddtSummary } from '../src/services/alphafold/confidence.js';
import { layoutFor, renderPae, tickStep } from '../src/services/alphafold/heatmap.js';
import { accessionIdsRow, csvFields, typedMeta } from '../src/services/alphafold/metadata.js';
import { PaeFormatError, normalizePae, readPae, scanMatrix, servedPae } from '../src/services/alphafold/pae.js';
import { crc32, encodePng } from '../src/services/alphafold/png.js';
import { parseRange } from '../src/services/alphafold/routes.js';
import { tarMembers } from '../src/services/alphafold/tar.js';
import { parseFileName } from '../src/services/alphafold/handlers.js';
import { tarOf } from '../synthetic/alphafold-generate.js';
import { readPng } from './alphafold-fixtures.js';

describe('confidence categories', () => {
  it('uses the interface boundaries for names (strictly above 90, 70, 50)', () => {
    expect([90.01, 90, 70.01, 70, 50.01, 50, 0].map(categoryName)).toEqual(['very_high', 'high', 'high', 'low', 'low', 'very_low', 'very_low']);
  });
  it('uses the database boundaries for letters (90, 70, 50 and above)', () => {
    expect([100, 90, 89.99, 70, 69.99, 50, 49.99].map(categoryLetter)).toEqual(['H', 'H', 'M', 'M', 'L', 'L', 'D']);
  });
  it('summarises pLDDT as the database does', () => {
    expect(plddtSummary([95, 80, 60, 40])).toEqual({ globalMetricValue: 68.75, fractionPlddtVeryLow: 0.25, fractionPlddtLow: 0.25, fractionPlddtConfident: 0.25, fractionPlddtVeryHigh: 0.25 });
  });
});

describe('PAE files', () => {
  const current = Buffer.from('[{"predicted_aligned_error":[[0,1.5,3],[2,0,4],[5, 6 ,0]],"max_predicted_aligned_error":31.75}]');
  it('scans a square matrix, integers and decimals', () => {
    const m = readPae(current);
    expect(m.n).toBe(3);
    expect([...m.values]).toEqual([0, 1.5, 3, 2, 0, 4, 5, 6, 0]);
    expect(m.max).toBe(31.75);
  });
  it('keeps a current-form file as loaded', () => {
    expect(normalizePae(current).bytes).toBe(current);
  });
  it('refuses ragged, non-square, negative and cut-short matrices, naming the fault', () => {
    const bad: [string, RegExp][] = [
      ['[[0,1],[1]]', /row 2 has 1 values/],
      ['[[0,1],[1,0],[2,2]]', /not square/],
      ['[[0,-1],[1,0]]', /non-negative number/],
      ['[[0,1],[1,0]', /cut short/],
      ['[[0,1e5],[1,0]]', /non-negative number/],
    ];
    for (const [m, re] of bad) expect(() => scanMatrix(Buffer.from(m), 0), m).toThrow(re);
    expect(() => normalizePae(Buffer.from('{"something":1}'))).toThrow(PaeFormatError);
  });
  it('serves the matrix under both names, byte for byte', () => {
    const o = (JSON.parse(servedPae(current).toString()) as Record<string, unknown>[])[0];
    expect(o).toEqual({
      distance: [
        [0, 1.5, 3],
        [2, 0, 4],
        [5, 6, 0],
      ],
      predicted_aligned_error: [
        [0, 1.5, 3],
        [2, 0, 4],
        [5, 6, 0],
      ],
      max_predicted_aligned_error: 31.75,
    });
  });
});

describe('PAE image', () => {
  it('lays out square cells for small matrices and blocks for large ones', () => {
    expect(layoutFor(100).side).toBe(600);
    expect(layoutFor(2700).side).toBe(540);
    expect(tickStep(142, 8)).toBe(20);
    expect(tickStep(2700, 8)).toBe(500);
  });
  it('renders a 2,700-residue matrix to a PNG of the plot size', () => {
    const n = 2700;
    const values = new Float32Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) values[i * n + j] = Math.min(31, Math.abs(i - j) / 10);
    const png = readPng(renderPae({ n, values, max: 31.75 }));
    const L = layoutFor(n);
    expect([png.width, png.height]).toEqual([L.width, L.height]);
    // The diagonal block is dark green, the far corner pale.
    const [r, g, b] = png.at(L.x0 + 10, L.y0 + 10);
    expect(g).toBeGreaterThan(r);
    expect(g).toBeLessThan(110);
    expect(b).toBeLessThan(g);
    expect(png.at(L.x0 + L.side - 2, L.y0 + 2)[0]).toBeGreaterThan(200);
  });
  it('encodes PNG chunks with correct CRCs', () => {
    expect(crc32([Buffer.from('IEND')])).toBe(0xae426082);
    const png = encodePng(2, 1, new Uint8Array([255, 0, 0, 0, 0, 255]));
    expect(readPng(png).at(1, 0)).toEqual([0, 0, 255]);
  });
});

describe('checksums', () => {
  it('computes UniProt CRC64 and MD5', () => {
    expect(crc64('MVLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKGHGKKVADALTNAVAHVDDMPNALSALSDLHAHKLRVDPVNFKLLSHCLLVTLAAHLPAEFTPAVHASLDKFLASVSTVLTSKYR')).toBe('15E13666573BBBAE');
    expect(md5('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });
});

describe('tar archives', () => {
  it('reads members across chunk boundaries, with GNU long names', async () => {
    const long = `${'d/'.repeat(60)}AF-Q9ZZZ1-F1-model_v4.cif.gz`;
    const longHeader = tarOf([{ name: '././@LongLink', bytes: Buffer.from(`${long}\0`) }]).subarray(0, 1024);
    longHeader[156] = 'L'.charCodeAt(0);
    // Recompute the checksum of the edited header.
    longHeader.write('        ', 148);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += longHeader[i] as number;
    longHeader.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    const body = tarOf([
      { name: 'short', bytes: Buffer.from('x'.repeat(700)) },
      { name: 'b.json', bytes: Buffer.from('{}') },
    ]);
    const all = Buffer.concat([longHeader, body]);
    const chunks = Array.from({ length: Math.ceil(all.length / 100) }, (_, i) => all.subarray(i * 100, i * 100 + 100));
    const out: [string, number][] = [];
    for await (const m of tarMembers(Readable.from(chunks))) out.push([m.name, m.bytes.length]);
    expect(out).toEqual([
      [long, 700],
      ['b.json', 2],
    ]);
  });
  it('refuses what is not a tar', async () => {
    await expect(
      (async () => {
        for await (const _ of tarMembers(Readable.from([Buffer.alloc(512, 65)]))) void _;
      })(),
    ).rejects.toThrow(/not a tar/);
  });
});

describe('names and fields', () => {
  it("parses the file host's names", () => {
    expect(parseFileName('AF-P04637-9-F1-model_v6.bcif')).toEqual({ entryId: 'AF-P04637-9-F1', kind: 'model', version: 6, format: 'bcif' });
    expect(parseFileName('AF-0000000003510504-model_v1.cif')).toEqual({ entryId: 'AF-0000000003510504', kind: 'model', version: 1, format: 'cif' });
    expect(parseFileName('AF-P04637-F1-confidence_v4.png')).toBeUndefined();
  });
  it('splits CSV with quotes and types metadata values', () => {
    expect(csvFields('a,"b,c","d ""e""",')).toEqual(['a', 'b,c', 'd "e"', '']);
    expect(typedMeta({ entryId: 'AF-X-F1', taxId: '9606', isReviewed: 'TRUE', allVersions: '[1, 2]', geneSynonyms: 'A;B', extra: 'dropped' })).toEqual({
      entryId: 'AF-X-F1',
      taxId: 9606,
      isReviewed: true,
      allVersions: [1, 2],
      geneSynonyms: ['A', 'B'],
    });
    expect(() => typedMeta({ entryId: 'AF-X-F1', globalMetricValue: 'high' })).toThrow(/globalMetricValue/);
    expect(accessionIdsRow(['P69905', '1', '142', 'AF-P69905-F1', '4'])).toEqual({ entryId: 'AF-P69905-F1', uniprotAccession: 'P69905', uniprotStart: 1, uniprotEnd: 142, latestVersion: 4 });
  });
  it('reads single byte ranges', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-5', 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 100)).toBeUndefined();
  });
});

describe('ingest threads', () => {
  it('read entries in a thread as in place, and fail only the entry that cannot be read', async () => {
    const { IngestPool, readInPlace } = await import('../src/services/alphafold/ingest-pool.js');
    const { generateEntry, entryFiles, syntheticSequence } = await import('../synthetic/alphafold-generate.js');
    const pool = IngestPool.create(1);
    // The thread script is the build's: `npm test` builds first.
    expect(pool, 'dist/services/alphafold/ingest-worker.js (run npm run build)').toBeDefined();
    if (!pool) return;
    try {
      const e = generateEntry({ accession: 'Q9ZZX1', uniprotId: 'T_HUMAN', description: 'Generated', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(30, 9) });
      const [model, confidence, pae] = entryFiles(e).map((f) => ({ bytes: f.bytes, place: { file: f.name, position: 0 } }));
      const p = { model, confidence, pae };
      const [threaded, here] = await Promise.all([pool.run(e.entryId, 4, p), readInPlace(e.entryId, 4, p)]);
      expect(threaded).toEqual(here);
      expect(Buffer.isBuffer(threaded.model)).toBe(true);
      await expect(pool.run('AF-Q9ZZX2-F1', 4, { model: { bytes: Buffer.from('data_x\n'), place: { file: 'x', position: 0 } } })).rejects.toThrow(/CIF|atom/);
      // The thread is still there for the next entry.
      expect((await pool.run(e.entryId, 4, p)).entryId).toBe(e.entryId);
    } finally {
      await pool.close();
    }
  });
});
