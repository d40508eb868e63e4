/**
 * Compound SD files read by threads while the loader writes (ingest/sdf-threads.ts): the stored
 * rows are those of a load read in the loader's own thread, files keep their order (the first
 * record of a CID wins), and a file that breaks midway fails the load with its name, leaving what
 * was served before.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../src/core/ingest/load.js';
import { disjointFiles } from '../src/services/pubchem/ingest/sdf-threads.js';
import { COMPOUND_PREFIX, CompoundStore } from '../src/services/pubchem/store/compounds.js';
import { tableSet } from '../src/core/ingest/dataset.js';
import { ident } from '../src/core/store/db.js';
import { derivedDirOf } from '../src/core/files/derived.js';
import { keyFilePath, writeGenerationKeys } from '../src/services/pubchem/search/keys.js';
import { writeKeysAlongside } from '../src/services/pubchem/search/keys-thread.js';
import type { ServiceModule } from '../src/services/types.js';
import type { TestApp } from './helpers/app.js';
import { dataset, pubchemApp } from './helpers/pubchem.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/pubchem/real-subskeys.sdf.gz');
const WORKER = fileURLToPath(new URL('../dist/services/pubchem/ingest/sdf-worker.js', import.meta.url));
const KEYS_WORKER = fileURLToPath(new URL('../dist/services/pubchem/search/keys-worker.js', import.meta.url));
const sqlite = STORES.filter((s) => s.name === 'sqlite');

/** The fixture cut in two files; the second repeats the first record of the first under its own text. */
function twoFiles(): { dir: string; firstCid: number } {
  const records = gunzipSync(readFileSync(FIXTURE))
    .toString('utf8')
    .split(/(?<=\n\$\$\$\$\n)/);
  const half = Math.floor(records.length / 2);
  const first = records[0] as string;
  const firstCid = Number(/> <PUBCHEM_COMPOUND_CID>\n(\d+)/.exec(first)?.[1]);
  const changed = first.replace(/(> <PUBCHEM_IUPAC_NAME>\n)[^\n]*/, '$1not the first one');
  const dir = tempDir();
  writeFileSync(join(dir, 'Compound_1.sdf.gz'), gzipSync(records.slice(0, half).join('')));
  writeFileSync(join(dir, 'Compound_2.sdf.gz'), gzipSync(records.slice(half).join('') + changed));
  return { dir, firstCid };
}

/** The fixture's records in CID order, cut in two files named for their CID ranges as PubChem names its files. */
function rangedFiles(): { dir: string; names: string[] } {
  const records = gunzipSync(readFileSync(FIXTURE))
    .toString('utf8')
    .split(/(?<=\n\$\$\$\$\n)/)
    .filter((r) => r.trim() !== '')
    .map((text) => ({ text, cid: Number(/> <PUBCHEM_COMPOUND_CID>\n(\d+)/.exec(text)?.[1]) }))
    .sort((a, b) => a.cid - b.cid);
  const half = Math.floor(records.length / 2);
  const dir = tempDir();
  const pad = (n: number) => String(n).padStart(9, '0');
  const names = [records.slice(0, half), records.slice(half)].map((part) => {
    const name = `Compound_${pad((part[0] as { cid: number }).cid)}_${pad((part[part.length - 1] as { cid: number }).cid)}.sdf.gz`;
    writeFileSync(join(dir, name), gzipSync(part.map((r) => r.text).join('')));
    return name;
  });
  return { dir, names };
}

describe('files written in any order', () => {
  it('only when every file names a CID range as PubChem does and no two ranges meet', () => {
    expect(disjointFiles(['/x/Compound_000000001_000500000.sdf.gz', '/x/Compound_000500001_001000000.sdf.gz'])).toBe(true);
    // Listed out of order: still disjoint.
    expect(disjointFiles(['Compound_000500001_001000000.sdf', 'Compound_000000001_000500000.sdf.gz'])).toBe(true);
    expect(disjointFiles(['Compound_000000001_000500000.sdf.gz', 'Compound_000500000_001000000.sdf.gz'])).toBe(false);
    expect(disjointFiles(['Compound_000000001_000500000.sdf.gz', 'Compound_1.sdf.gz'])).toBe(false);
    expect(disjointFiles(['Compound_000500000_000000001.sdf.gz'])).toBe(false);
    expect(disjointFiles(['Compound_000000001_000500000.sdf.gz', 'Compound_000000001_000500000.sdf.gz'])).toBe(false);
  });
});

describe.each(sqlite)('compound files read by threads on $name', (target) => {
  let s: OpenedStore;
  let t: TestApp;
  let m: ServiceModule;
  const saved = process.env.BIOMIRROR_INGEST_WORKERS;

  beforeAll(async () => {
    s = await target.open();
    ({ t, m } = await pubchemApp(s));
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.BIOMIRROR_INGEST_WORKERS;
    else process.env.BIOMIRROR_INGEST_WORKERS = saved;
  });
  afterAll(async () => {
    await t?.close();
    await s?.cleanup();
  });

  const rows = async (gen: number) => {
    const out: Record<string, unknown[]> = {};
    for (const table of ['compounds', 'lookup', 'structures']) {
      out[table] = await s.db.query(`SELECT * FROM ${ident(`pcc_${table}_g${gen}`)} ORDER BY cid`);
    }
    return out;
  };

  it('stores what a load read in its own thread stores, files in order, the first record of a CID kept', async () => {
    expect(existsSync(WORKER), 'the build (npm run build) provides the reading thread').toBe(true);
    const { dir, firstCid } = twoFiles();
    const skipsOf = () => {
      const list: string[] = [];
      return { list, onSkip: (p: { file: string; position: string | number }, reason: string) => list.push(`${p.file.split('/').pop()} ${p.position} ${reason}`) };
    };
    process.env.BIOMIRROR_INGEST_WORKERS = '0';
    const inPlace = skipsOf();
    const a = await runLoad(s.db, t.generations, dataset(m, 'compounds'), dir, { onSkip: inPlace.onSkip });
    const stored = await rows(a.gen);
    process.env.BIOMIRROR_INGEST_WORKERS = '2';
    const threaded = skipsOf();
    const b = await runLoad(s.db, t.generations, dataset(m, 'compounds'), dir, { onSkip: threaded.onSkip });
    expect(b.records).toBe(a.records);
    expect(await rows(b.gen)).toEqual(stored);
    expect(threaded.list).toEqual(inPlace.list);
    expect(threaded.list.some((x) => x.startsWith('Compound_2.sdf.gz') && x.includes('duplicate'))).toBe(true);
    const kept = (stored.compounds as { cid: number; sdf: string }[]).find((r) => r.cid === firstCid);
    expect(kept?.sdf).not.toContain('not the first one');
  }, 120_000);

  it('stores the same compounds when files named for disjoint CID ranges are written as they are read', async () => {
    const { dir, names } = rangedFiles();
    expect(disjointFiles(names)).toBe(true);
    process.env.BIOMIRROR_INGEST_WORKERS = '0';
    const a = await runLoad(s.db, t.generations, dataset(m, 'compounds'), dir);
    process.env.BIOMIRROR_INGEST_WORKERS = '2';
    const b = await runLoad(s.db, t.generations, dataset(m, 'compounds'), dir);
    expect(b.records).toBe(a.records);
    const [ra, rb] = [await rows(a.gen), await rows(b.gen)];
    // Blocks are numbered as written, which may now interleave the files: all else is equal.
    const strip = (list: unknown[]) => (list as Record<string, unknown>[]).map(({ block: _b, slot: _s, ...rest }) => rest);
    expect(strip(rb.compounds as unknown[])).toEqual(strip(ra.compounds as unknown[]));
    expect(rb.lookup).toEqual(ra.lookup);
    expect(rb.structures).toEqual(ra.structures);
    const cids = (ra.compounds as { cid: number }[]).map((r) => Number(r.cid));
    expect(cids.length).toBeGreaterThan(1000);
    const texts = async (gen: number) => [...(await new CompoundStore(s.db, tableSet(COMPOUND_PREFIX, gen)).rows(cids, ['sdf']))].map(([cid, r]) => [cid, r.sdf]);
    const [ta, tb] = [await texts(a.gen), await texts(b.gen)];
    expect(tb).toEqual(ta);
    expect((ta[0] as [number, string])[1]).toContain('$$$$');
  }, 120_000);

  it('writes the key file in a thread of its own while the indexes are built, as this thread would', async () => {
    expect(existsSync(KEYS_WORKER), 'the build (npm run build) provides the thread').toBe(true);
    const r = await runLoad(s.db, t.generations, dataset(m, 'compounds'), FIXTURE);
    const store = new CompoundStore(s.db, tableSet(COMPOUND_PREFIX, r.gen));
    const path = keyFilePath(s.db, `pcc_structures_g${r.gen}`, await store.keystamp());
    const again = join(tempDir(), 'again.keys');
    await writeGenerationKeys(store, again);
    expect(readFileSync(path).length).toBeGreaterThan(100 * 111);
    expect(readFileSync(path).equals(readFileSync(again))).toBe(true);
    expect(readFileSync(`${path}.keyless`).equals(readFileSync(`${again}.keyless`))).toBe(true);
    // And the load's searches use it.
    const res = await t.app.inject({ method: 'GET', url: '/pubchem/rest/pug/compound/fastsimilarity_2d/cid/23684363/cids/JSON?Threshold=95' });
    expect(res.statusCode).toBe(200);
    expect(res.json().IdentifierList.CID).toContain(23684363);
  }, 120_000);

  it('stops the key file’s thread when the indexes fail, without an unhandled rejection', async () => {
    const r = await runLoad(s.db, t.generations, dataset(m, 'compounds'), FIXTURE);
    const store = new CompoundStore(s.db, tableSet(COMPOUND_PREFIX, r.gen));
    const keys = writeKeysAlongside(s.db, COMPOUND_PREFIX, tableSet(COMPOUND_PREFIX, r.gen), store, join(tempDir(), 'stopped.keys'));
    await keys.stop();
    await expect(keys.done).rejects.toThrow(/key file/);
    // Left to settle unawaited, as finishCompounds leaves it: the test run reports an unhandled rejection.
    const again = writeKeysAlongside(s.db, COMPOUND_PREFIX, tableSet(COMPOUND_PREFIX, r.gen), store, join(tempDir(), 'stopped-again.keys'));
    await again.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }, 120_000);

  it('fails a load whose key file cannot be written, saying so, and keeps serving the load before', async () => {
    const good = await runLoad(s.db, t.generations, dataset(m, 'compounds'), FIXTURE);
    const folder = join(derivedDirOf(s.db), 'pubchem-keys');
    // A file where the folder of key files should be: the thread cannot write there.
    rmSync(folder, { recursive: true, force: true });
    writeFileSync(folder, 'not a folder');
    try {
      await expect(runLoad(s.db, t.generations, dataset(m, 'compounds'), FIXTURE)).rejects.toThrow(/key file/);
      expect(await t.generations.active('pubchem', 'compounds')).toBe(good.gen);
    } finally {
      rmSync(folder, { force: true });
      mkdirSync(folder, { recursive: true });
    }
    const res = await t.app.inject({ method: 'GET', url: '/pubchem/rest/pug/compound/cid/23684363/property/MolecularFormula/JSON' });
    expect(res.json().PropertyTable.Properties[0].MolecularFormula).toBe('C12H16NNaO4');
  }, 120_000);

  it('fails a load whose file breaks midway, naming it, and keeps serving the load before', async () => {
    process.env.BIOMIRROR_INGEST_WORKERS = '1';
    const good = await runLoad(s.db, t.generations, dataset(m, 'compounds'), FIXTURE);
    const whole = readFileSync(FIXTURE);
    const dir = tempDir();
    // Cut and corrupted inside the deflate stream: the reading thread's gunzip fails after some records.
    const broken = Buffer.from(whole.subarray(0, Math.floor(whole.length * 0.6)));
    broken.fill(0x55, broken.length - 4096);
    writeFileSync(join(dir, 'Compound_broken.sdf.gz'), broken);
    await expect(runLoad(s.db, t.generations, dataset(m, 'compounds'), dir)).rejects.toThrow(/Compound_broken\.sdf\.gz/);
    expect(await t.generations.active('pubchem', 'compounds')).toBe(good.gen);
    // The same beside a whole file, both named for their CID ranges (read side by side, in any order).
    process.env.BIOMIRROR_INGEST_WORKERS = '2';
    const ranged = rangedFiles();
    const second = join(ranged.dir, ranged.names[1] as string);
    const bytes = readFileSync(second);
    const cut = Buffer.from(bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    cut.fill(0x55, cut.length - 4096);
    writeFileSync(second, cut);
    await expect(runLoad(s.db, t.generations, dataset(m, 'compounds'), ranged.dir)).rejects.toThrow(new RegExp(ranged.names[1] as string));
    expect(await t.generations.active('pubchem', 'compounds')).toBe(good.gen);
  }, 120_000);
});
