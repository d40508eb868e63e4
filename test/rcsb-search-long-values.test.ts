/**
 * Values longer than a B-tree row can hold: real polymer sequences run to thousands of letters,
 * and PostgreSQL refuses an index row over 2,704 bytes, so a load holding one failed there. The
 * search tables index a key of such a value; queries find it whole, on both databases.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { LOW_KEY_UNITS, lowKey } from '../src/services/pdb/search/build/indexer.js';
import { rcsbSearch } from '../src/services/pdb/search/index.js';
import type { TestApp } from './helpers/app.js';
import { DEMO_DIR, globinVariant, loadArchive, pdbApp, search, writeFile, type Json } from './helpers/pdb.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

/**
 * Letters drawn by a fixed linear congruential generator, from its high bits (its low bits repeat
 * within a few steps): text that compresses poorly, as real sequences do.
 */
function drawn(chars: number, seed: number, alphabet: string): string {
  let x = seed;
  let out = '';
  while (out.length < chars) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[Math.floor(x / 65536) % alphabet.length] as string;
  }
  return out;
}

const AMINO = 'ACDEFGHIKLMNPQRSTVWY';
/** A generated protein sequence of 4,000 residues (real chains reach that: DNA-PK holds 4,128). */
const LONG = drawn(4000, 7, AMINO);
/** The same first 600 residues, then others. */
const TWIN = LONG.slice(0, 600) + drawn(3400, 11, AMINO);
/** 4HHB's alpha chain as its file writes it (80 residues a line). */
const ALPHA = ';VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKGHGKKVADALTNAVAHVDDMPNAL\nSALSDLHAHKLRVDPVNFKLLSHCLLVTLAAHLPAEFTPAVHASLDKFLASVSTVLTSKYR\n;';

/** A generated variant of 4HHB (test-only identifier) whose alpha chain's sequence is `seq`. */
function withSequence(id: string, seq: string): Buffer {
  const text = gunzipSync(globinVariant(id, { title: `GENERATED VARIANT ${id} WITH A LONG CHAIN`, method: 'X-RAY DIFFRACTION', resolution: '2.00', released: '2001-05-01' })).toString('utf8');
  if (!text.includes(ALPHA)) throw new Error('4HHB no longer writes its alpha chain as expected');
  return gzipSync(text.replaceAll(ALPHA, `;${seq.replace(/(.{80})/g, '$1\n').trim()}\n;`));
}

describe('the index key of a long value', () => {
  it('keeps short values and tells long ones apart by a hash of the whole', () => {
    expect(lowKey('x-ray diffraction')).toBe('x-ray diffraction');
    const short = 'a'.repeat(LOW_KEY_UNITS);
    expect(lowKey(short)).toBe(short);
    const a = lowKey(LONG.toLowerCase());
    const b = lowKey(TWIN.toLowerCase());
    expect(a.length).toBeLessThan(LOW_KEY_UNITS);
    expect(a.startsWith(LONG.toLowerCase().slice(0, 400))).toBe(true);
    expect(a).not.toBe(b);
    expect(lowKey(LONG.toLowerCase())).toBe(a);
    // A prefix never ends inside a surrogate pair (an astral character at the cut).
    const astral = `${'a'.repeat(447)}\u{1F9EC}${'b'.repeat(600)}`;
    const key = lowKey(astral);
    expect(key.slice(0, key.indexOf('\u0001'))).toBe('a'.repeat(447));
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))('RCSB Search API over long values on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const post = (body: Json) => search(t.app, body);
  const seq = (operator: string, value: unknown, extra: Json = {}) => ({
    type: 'terminal',
    service: 'text',
    parameters: { attribute: 'entity_poly.pdbx_seq_one_letter_code_can', operator, value, ...extra },
  });
  const ids = async (query: unknown) =>
    (((await post({ query, return_type: 'polymer_entity', request_options: { return_all_hits: true } })).result_set ?? []) as Json[]).map((h) => h.identifier as string);

  beforeAll(async () => {
    store = await target.open();
    t = await pdbApp(store, [rcsbData, rcsbSearch]);
    const dir = tempDir();
    writeFile(dir, 'hh/4hhb.cif.gz', readFileSync(join(DEMO_DIR, 'archive/hh/4hhb.cif.gz')));
    writeFile(dir, 'hl/9hl1.cif.gz', withSequence('9HL1', LONG));
    writeFile(dir, 'hl/9hl2.cif.gz', withSequence('9HL2', TWIN));
    const loaded = await loadArchive(store, t.generations, dir, { source: 'test' });
    expect(loaded.records).toBe(3);
  }, 600_000);
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('loads them and matches them whole, in any case unless asked', async () => {
    expect(await ids(seq('exact_match', LONG))).toEqual(['9HL1_1']);
    expect(await ids(seq('exact_match', LONG.toLowerCase()))).toEqual(['9HL1_1']);
    expect(await ids(seq('exact_match', TWIN))).toEqual(['9HL2_1']);
    expect(await ids(seq('exact_match', LONG, { case_sensitive: true }))).toEqual(['9HL1_1']);
    expect(await ids(seq('exact_match', LONG.toLowerCase(), { case_sensitive: true }))).toEqual([]);
    // Only the first 600 residues in common: no match.
    expect(await ids(seq('exact_match', `${LONG.slice(0, 600)}W`))).toEqual([]);
    expect(await ids(seq('in', [TWIN, LONG, 'GGGG']))).toEqual(['9HL1_1', '9HL2_1']);
    // Short values as before: 4HHB keeps its alpha chain.
    expect(await ids(seq('exact_match', ALPHA.slice(1, -2).replace('\n', '').toLowerCase()))).toEqual(['4HHB_1']);
  });

  it('gives them whole in facets', async () => {
    const r = await post({
      query: seq('exists', undefined),
      return_type: 'polymer_entity',
      request_options: { paginate: { start: 0, rows: 0 }, facets: [{ name: 's', aggregation_type: 'terms', attribute: 'entity_poly.pdbx_seq_one_letter_code_can' }] },
    });
    const labels = ((r.facets as Json[])[0]?.buckets as Json[]).map((b) => b.label as string);
    expect(labels).toContain(LONG);
    expect(labels).toContain(TWIN);
  });
});
