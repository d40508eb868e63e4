/**
 * The RCSB Search API benchmark, over a generated archive of N polymer entities (two per entry;
 * GENERATED documents, not PDB data), each figure beside its engine run alone on the same data in
 * the same run:
 * - the index build (the archive load's last step), documents/s;
 * - attribute (`text`) and `full_text` queries: latency percentiles with 10 clients, and the
 *   service's mean time per query beside the same SQL statements (count and page) run directly
 *   on the database, for a mix of queries asked again and again (their counts kept by the
 *   service) and for queries each asked once; beside them, a bare request (the health route),
 *   and the server's own time for the same requests (its request log: without the HTTP client's
 *   round trip);
 * - `seqmotif`: the service (count and first page) beside the same regular expression tested on
 *   each of the same sequences;
 * - the engine indexes the load builds (MMseqs2 databases, k-mer index and clusters), timed;
 * - `sequence`: the service beside `mmseqs easy-search` run alone on the same database (skipped
 *   without mmseqs);
 * - `structure` and `strucmotif` over an archive of generated mmCIF entries (bench/pdb/search-engines.ts).
 * Chemical queries are not measured here (they need a full chemical component dictionary).
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/pdb-search.js [--entities 100000] [--structures 500] [--duration 15] [--postgres URL]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { percentile, startAndWait, stop } from './lib/proc.js';
import { ROOT, cannon, log, machine, onEachDatabase, round, runMain, writeResults } from './lib/harness.js';
import { coordinateEngines } from './pdb/search-engines.js';

const { values } = parseArgs({ options: { entities: { type: 'string' }, structures: { type: 'string' }, duration: { type: 'string' }, postgres: { type: 'string' } } });
const STRUCTURES = Number(values.structures ?? 500);
const ENTITIES = Number(values.entities ?? 100_000);
const ENTRIES = Math.ceil(ENTITIES / 2);
const DURATION = Number(values.duration ?? 15);
const work = mkdtempSync(join(tmpdir(), 'biomirror-bench-search-'));
const Q = '/rcsb/search/rcsbsearch/v2/query';

// The server's own modules, from the build (benchmarks are compiled apart from the source).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const dist = (p: string): Promise<Any> => import(join(ROOT, 'dist', p));

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AA = 'ACDEFGHIKLMNPQRSTVWY';
const METHODS = ['X-RAY DIFFRACTION', 'X-RAY DIFFRACTION', 'X-RAY DIFFRACTION', 'ELECTRON MICROSCOPY', 'SOLUTION NMR'];
const ORGANISMS: [string, number][] = [
  ['Homo sapiens', 9606],
  ['Mus musculus', 10090],
  ['Escherichia coli', 562],
  ['Saccharomyces cerevisiae', 4932],
  ['Rattus norvegicus', 10116],
];
const NOUNS = ['kinase', 'protease', 'receptor', 'transporter', 'synthase', 'reductase', 'oxidase', 'ligase', 'channel', 'antibody', 'nuclease', 'polymerase'];
const ADJ = ['crystal', 'cryo-EM', 'solution', 'apo', 'ligand-bound', 'mutant', 'engineered', 'human', 'bacterial', 'thermostable'];
/** Protein families: entities are mutated copies of one of them, so sequence search finds relatives. */
const FAMILIES = (() => {
  const r = rng(7);
  return Array.from({ length: 2000 }, () => Array.from({ length: 80 + Math.floor(r() * 300) }, () => AA[Math.floor(r() * 20)]).join(''));
})();

function* generated(): Generator<{ value: Any; place: { file: string; position: number } }> {
  const r = rng(1);
  for (let i = 0; i < ENTRIES; i++) {
    const id = `X${i.toString(36).toUpperCase().padStart(7, '0')}`;
    const method = METHODS[i % METHODS.length] as string;
    const year = 1980 + Math.floor(r() * 45);
    const date = `${year}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}T00:00:00+0000`;
    const noun = NOUNS[Math.floor(r() * NOUNS.length)] as string;
    const title = `GENERATED ${ADJ[Math.floor(r() * ADJ.length)]} structure of a ${noun} ${i}`.toUpperCase();
    const entities = [1, 2].map((e) => {
      const fam = FAMILIES[Math.floor(r() * FAMILIES.length)] as string;
      const seq = [...fam].map((c) => (r() < 0.1 ? AA[Math.floor(r() * 20)] : c)).join('');
      const [org, tax] = ORGANISMS[Math.floor(r() * ORGANISMS.length)] as [string, number];
      return { e, seq, org, tax, desc: `${noun} subunit ${e === 1 ? 'alpha' : 'beta'}` };
    });
    const entry = {
      rcsb_id: id,
      struct: { title },
      exptl: [{ method }],
      rcsb_entry_info: { resolution_combined: method === 'SOLUTION NMR' ? undefined : [round(1 + r() * 3.5)], polymer_entity_count: 2, deposited_atom_count: Math.floor(1000 + r() * 20000) },
      rcsb_accession_info: { initial_release_date: date, deposit_date: date },
      rcsb_entry_container_identifiers: { entry_id: id, polymer_entity_ids: ['1', '2'] },
      citation: [{ id: 'primary', year, journal_abbrev: ['Nature', 'Science', 'J.Mol.Biol.', 'Proc.Natl.Acad.Sci.USA'][i % 4], title: `A study of the ${noun}` }],
    };
    const parts: Any[] = [];
    for (const en of entities) {
      parts.push({
        kind: 'polymer_entity',
        doc: {
          rcsb_id: `${id}_${en.e}`,
          entity_poly: { pdbx_seq_one_letter_code_can: en.seq, rcsb_entity_polymer_type: 'Protein', rcsb_sample_sequence_length: en.seq.length },
          rcsb_polymer_entity: { pdbx_description: en.desc, formula_weight: round((en.seq.length * 110) / 1000) },
          rcsb_entity_source_organism: [{ scientific_name: en.org, ncbi_taxonomy_id: en.tax }],
          rcsb_polymer_entity_container_identifiers: { entity_id: String(en.e), entry_id: id, asym_ids: [en.e === 1 ? 'A' : 'B'] },
        },
      });
      const asym = en.e === 1 ? 'A' : 'B';
      parts.push({ kind: 'polymer_entity_instance', doc: { rcsb_id: `${id}.${asym}`, rcsb_polymer_entity_instance_container_identifiers: { asym_id: asym, entity_id: String(en.e), entry_id: id } } });
    }
    parts.push({ kind: 'assembly', doc: { rcsb_id: `${id}-1`, rcsb_assembly_info: { polymer_entity_count: 2, assembly_id: '1' }, pdbx_struct_assembly_gen: [{ asym_id_list: 'A,B' }] } });
    yield { value: { id, entry, parts }, place: { file: 'generated', position: i } };
  }
}

/** The archive dataset's tables and index build, fed generated documents instead of mmCIF files. */
async function syntheticDataset(): Promise<Any> {
  const store = await dist('services/pdb/store/tables.js');
  const { buildSearchIndex } = await dist('services/pdb/search/build/indexer.js');
  const { buildEngineIndexes } = await dist('services/pdb/search/build/engine-indexes.js');
  return {
    service: 'rcsb-data',
    name: 'archive',
    tablePrefix: store.ARCHIVE_PREFIX,
    tables: store.ARCHIVE_TABLES,
    batchSize: 500,
    async *read() {
      yield* generated();
    },
    create: store.createArchive,
    async write(tx: Any, t: Any, batch: Any[]) {
      const entries = batch.map(({ value: v }) => [v.id, JSON.stringify(v.entry), 'none', null, null, 'generated', 'g']);
      const parts = batch.flatMap(({ value: v }) => v.parts.map((p: Any) => [p.kind, p.doc.rcsb_id, v.id, JSON.stringify(p.doc)]));
      await tx.insertMany(t.name('entries'), ['entry_id', 'doc', 'file_key', 'sf_key', 'pubmed_id', 'source', 'stamp'], entries);
      await tx.insertMany(t.name('parts'), ['kind', 'rcsb_id', 'entry_id', 'doc'], parts);
      return [];
    },
    async finish(db: Any, t: Any) {
      await store.finishArchive(db, t);
      const t0 = performance.now();
      await buildSearchIndex(db, t);
      indexSeconds = (performance.now() - t0) / 1000;
      engineBuild = await buildEngineIndexes(db, t);
    },
    count: store.countArchive,
  };
}
let indexSeconds = 0;
let engineBuild: Any;

const term = (attribute: string, operator: string, value?: unknown) => ({ type: 'terminal', service: 'text', parameters: { attribute, operator, ...(value === undefined ? {} : { value }) } });
const ATTRIBUTE_QUERIES = [
  term('exptl.method', 'exact_match', 'ELECTRON MICROSCOPY'),
  term('rcsb_entry_info.resolution_combined', 'range', { from: 1.5, to: 1.6 }),
  term('rcsb_accession_info.initial_release_date', 'range', { from: '2001-01-01', to: '2001-03-01' }),
  term('rcsb_entity_source_organism.ncbi_taxonomy_id', 'equals', 9606),
  term('struct.title', 'contains_words', 'thermostable'),
  { type: 'group', logical_operator: 'and', nodes: [term('exptl.method', 'exact_match', 'SOLUTION NMR'), term('rcsb_polymer_entity.pdbx_description', 'contains_phrase', 'kinase subunit alpha')] },
];
/** The same and-group asked for assemblies and for entities: entry and entity hits mapped to another level. */
const ACROSS = ATTRIBUTE_QUERIES.length - 1;
const FULL_TEXT = ['kinase', 'thermostable protease', 'cryo-em receptor', 'engineered ligase alpha'];
const page = (query: unknown, return_type = 'entry') => ({ query, return_type, request_options: { paginate: { start: 0, rows: 10 } } });
/** The attribute mix: each query for entries, and the last one for assemblies and entities too. */
const attributeBodies = () => [...ATTRIBUTE_QUERIES.map((q) => page(q)), page(ATTRIBUTE_QUERIES[ACROSS], 'assembly'), page(ATTRIBUTE_QUERIES[ACROSS], 'polymer_entity')];
const url = (body: unknown) => `${Q}?json=${encodeURIComponent(JSON.stringify(body))}`;

async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const overhead = (service: number[], engine: number[]) => ({
  serviceMeanMs: round(mean(service)),
  engineMeanMs: round(mean(engine)),
  overheadPercent: round(((mean(service) - mean(engine)) / mean(engine)) * 100),
});

/** POSTs a query; `id` names the request in the server's log (x-request-id), where its time is read. */
async function fetchJson(base: string, body: unknown, id?: string): Promise<Any> {
  const r = await fetch(base + Q, { method: 'POST', headers: { 'content-type': 'application/json', ...(id ? { 'x-request-id': id } : {}) }, body: JSON.stringify(body) });
  if (r.status !== 200 && r.status !== 204) throw new Error(`${r.status} ${await r.text()}`);
  return r.status === 204 ? undefined : r.json();
}

async function runQueries(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined) {
  const dataDir = join(work, dialect);
  mkdirSync(dataDir, { recursive: true });
  const { openStore } = await dist('core/store/open.js');
  const { Generations } = await dist('core/store/generations.js');
  const { runLoad } = await dist('core/ingest/load.js');
  const { migrate } = await dist('core/store/migrations.js');
  const { scopeOf } = await dist('services/pdb/search/query/engine.js');
  const { statements } = await dist('services/pdb/search/query/paging.js');
  const { readRequest } = await dist('services/pdb/search/query/request.js');
  const { prositeToRegex } = await dist('services/pdb/search/query/seqmotif.js');
  const db = await openStore({ dataDir, databaseUrl });
  await migrate(db, 'rcsb-data', []);
  const generations = new Generations(db);
  log(`[${dialect}] load ${ENTRIES.toLocaleString('en-US')} generated entries (${ENTITIES.toLocaleString('en-US')} polymer entities) and build the search index`);
  const t0 = performance.now();
  await runLoad(db, generations, await syntheticDataset(), 'generated', { source: 'bench' });
  const load = {
    entries: ENTRIES,
    polymerEntities: ENTITIES,
    loadSeconds: round((performance.now() - t0) / 1000),
    indexSeconds: round(indexSeconds),
    documentsPerSecond: Math.round((ENTRIES * 6) / indexSeconds),
    engineIndexes: engineBuild,
  };
  const scope = await scopeOf(db, generations);
  const n = scope.archive;

  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const { child, match } = await startAndWait(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/, { stdout: true });
  // The server's own time for each named request (its request log's \`ms\`: from the request's
  // arrival to the end of the response), by phase: the service without the HTTP client's round trip.
  const serverMs = new Map<string, number[]>();
  let pending = '';
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.stdout?.on('data', (d: Buffer) => {
    const lines = (pending + d.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const m = /"reqId":"bench-([a-z-]+)-\d+".*"ms":([\d.]+)/.exec(line);
      if (m) serverMs.set(m[1] as string, [...(serverMs.get(m[1] as string) ?? []), Number(m[2])]);
    }
  });
  /** A phase's figures with the server's side beside them. */
  const atServer = (phase: string, o: ReturnType<typeof overhead>) => {
    const ms = serverMs.get(phase) ?? [];
    if (ms.length === 0) return { ...o, serverSide: 'not logged' };
    return { ...o, serverSideMeanMs: round(mean(ms)), serverSideOverheadPercent: round(((mean(ms) - o.engineMeanMs) / o.engineMeanMs) * 100) };
  };
  const base = `${match[1] as string}`;
  // The server's last words, shown if the run fails.
  let serverLog = '';
  let result: Any;
  child.stderr?.on('data', (d: Buffer) => {
    serverLog = (serverLog + d.toString()).slice(-4000);
  });
  try {
    // Warm the caches (attribute kinds, sequences) once.
    const attrBodies = attributeBodies();
    for (const b of attrBodies) await fetchJson(base, b);
    let i = 0;
    log(`[${dialect}] attribute queries, 10 clients`);
    const attrLoad = await cannon(base, () => url(attrBodies[i++ % attrBodies.length]), DURATION, 10);
    log(`[${dialect}] full_text queries, 10 clients`);
    const ftLoad = await cannon(base, () => url(page({ type: 'terminal', service: 'full_text', parameters: { value: FULL_TEXT[i++ % FULL_TEXT.length] } })), DURATION, 10);

    // One client: the service beside the SQL statements it runs for the same request (count and
    // page, or one statement carrying both), built beforehand and run directly on the database.
    const reps = 20;
    const sqlOf = async (body: unknown) => statements(scope, readRequest(body));
    const runSql = async (st: Any) => {
      if (st.windowed) return (await db.query(st.list.sql, st.list.params)).length;
      await db.one(st.count.sql, st.count.params);
      return (await db.query(st.list.sql, st.list.params)).length;
    };
    const attrSql = await Promise.all(attrBodies.map(sqlOf));
    const attrService = await timeEach(reps * attrBodies.length, (k) => fetchJson(base, attrBodies[k % attrBodies.length], `bench-attr-again-${k}`));
    const attrEngine = await timeEach(reps * attrBodies.length, (k) => runSql(attrSql[k % attrSql.length]));
    const ftBodies = FULL_TEXT.map((value) => page({ type: 'terminal', service: 'full_text', parameters: { value } }));
    const ftSql = await Promise.all(ftBodies.map(sqlOf));
    const ftService = await timeEach(reps * ftBodies.length, (k) => fetchJson(base, ftBodies[k % ftBodies.length], `bench-ft-again-${k}`));
    const ftEngine = await timeEach(reps * ftBodies.length, (k) => runSql(ftSql[k % ftSql.length]));
    // The same, each query asked once (the service keeps the counts of queries it has answered):
    // ranges with bounds of their own, pairs of words.
    const day = (k: number) => new Date(Date.UTC(1990, 0, 1 + 37 * k)).toISOString().slice(0, 10);
    const freshAttr = Array.from({ length: reps * 3 }, (_, k) =>
      page(
        k % 2
          ? term('rcsb_entry_info.resolution_combined', 'range', { from: 1.5 + k / 1000, to: 1.6 + k / 1000 })
          : term('rcsb_accession_info.initial_release_date', 'range', { from: day(k), to: day(k + 2) }),
      ),
    );
    const freshAttrSql = await Promise.all(freshAttr.map(sqlOf));
    const freshAttrService = await timeEach(freshAttr.length, (k) => fetchJson(base, freshAttr[k], `bench-attr-once-${k}`));
    const freshAttrEngine = await timeEach(freshAttr.length, (k) => runSql(freshAttrSql[k]));
    const freshFt = Array.from({ length: 60 }, (_, k) => page({ type: 'terminal', service: 'full_text', parameters: { value: `${ADJ[k % ADJ.length]} ${NOUNS[k % NOUNS.length]}` } }));
    const freshFtSql = await Promise.all(freshFt.map(sqlOf));
    const freshFtService = await timeEach(freshFt.length, (k) => fetchJson(base, freshFt[k], `bench-ft-once-${k}`));
    const freshFtEngine = await timeEach(freshFt.length, (k) => runSql(freshFtSql[k]));
    // What any request costs here: the server's health route (no body, no database), same client.
    const bare = await timeEach(reps * 3, async () => (await fetch(`${base}/_biomirror/health`)).text());

    log(`[${dialect}] seqmotif`);
    const motifs = ['C-x(2,4)-C-x(3)-[LIVMFYWC]', 'W-x(2)-[FY]-x-H', '<M-[KR]-x(3)-L', 'H-x(3)-H-x(2)-C'];
    const seqs = (await db.query(`SELECT seq FROM ${n.sseq}`)).map((r: Any) => r.seq as string);
    await fetchJson(base, { query: { type: 'terminal', service: 'seqmotif', parameters: { value: motifs[0], pattern_type: 'prosite' } }, return_type: 'polymer_entity' });
    const motifService = await timeEach(5 * motifs.length, (k) =>
      fetchJson(
        base,
        { query: { type: 'terminal', service: 'seqmotif', parameters: { value: motifs[k % motifs.length], pattern_type: 'prosite' } }, return_type: 'polymer_entity' },
        `bench-motif-${k}`,
      ),
    );
    const motifEngine = await timeEach(5 * motifs.length, async (k) => {
      const re = new RegExp(prositeToRegex(motifs[k % motifs.length]), 'g');
      let hits = 0;
      for (const s of seqs) {
        re.lastIndex = 0;
        if (re.test(s)) hits++;
      }
      return hits;
    });

    let sequence: Any = { skipped: 'mmseqs is not installed' };
    if (spawnSync('sh', ['-c', 'command -v mmseqs'], { stdio: 'ignore' }).status === 0) {
      log(`[${dialect}] sequence (MMseqs2)`);
      const queries = FAMILIES.slice(0, 5).map((f) => f.slice(0, 120));
      const body = (q: string) => ({
        query: { type: 'terminal', service: 'sequence', parameters: { value: q, sequence_type: 'protein', evalue_cutoff: 0.1 } },
        return_type: 'polymer_entity',
        request_options: { paginate: { start: 0, rows: 10 } },
      });
      const tb = performance.now();
      await fetchJson(base, body(queries[0] as string));
      const firstQuerySeconds = round((performance.now() - tb) / 1000);
      const seqService = await timeEach(queries.length * 2, (k) => fetchJson(base, body(queries[k % queries.length] as string), `bench-sequence-${k}`));
      // The engine alone on the database the load built (with its k-mer index).
      const dir = join(work, `mmseqs-${dialect}`);
      mkdirSync(dir, { recursive: true });
      symlinkSync(join(dataDir, 'index', `sequences-${engineBuild.sequences.hash}`, 'protein'), join(dir, 'protein'));
      const seqEngine = await timeEach(queries.length * 2, async (k) => {
        writeFileSync(join(dir, 'q.fasta'), `>q\n${queries[k % queries.length]}\n`);
        execFileSync(
          'mmseqs',
          [
            'easy-search',
            'q.fasta',
            'protein/db',
            'out.m8',
            'tmp',
            '-e',
            '0.1',
            '--threads',
            '1',
            '-v',
            '1',
            '--max-seqs',
            '10000',
            '--format-output',
            'query,target,fident,alnlen,mismatch,gapopen,qstart,qend,tstart,tend,evalue,bits,qlen,tlen,qaln,taln',
          ],
          { cwd: dir },
        );
      });
      sequence = { firstQuerySecondsAfterLoad: firstQuerySeconds, ...overhead(seqService, seqEngine) };
    }
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    result = {
      load,
      attributeQueries10Clients: attrLoad,
      fullTextQueries10Clients: ftLoad,
      attributeOneClient: { ...overhead(attrService, attrEngine), serviceP99Ms: round(percentile(sorted(attrService), 99)) },
      fullTextOneClient: { ...overhead(ftService, ftEngine), serviceP99Ms: round(percentile(sorted(ftService), 99)) },
      attributeOneClientEachOnce: overhead(freshAttrService, freshAttrEngine),
      fullTextOneClientEachOnce: overhead(freshFtService, freshFtEngine),
      bareRequestOneClientMeanMs: round(mean(bare)),
      seqmotif: overhead(motifService, motifEngine),
      sequence,
    };
  } catch (err) {
    log(`server output before the failure:\n${serverLog}`);
    throw err;
  } finally {
    await stop(child);
    await db.close();
  }
  // Every log line is read once the server has ended.
  await closed;
  result.attributeOneClient = atServer('attr-again', result.attributeOneClient);
  result.fullTextOneClient = atServer('ft-again', result.fullTextOneClient);
  result.attributeOneClientEachOnce = atServer('attr-once', result.attributeOneClientEachOnce);
  result.fullTextOneClientEachOnce = atServer('ft-once', result.fullTextOneClientEachOnce);
  result.seqmotif = atServer('motif', result.seqmotif);
  if (result.sequence.engineMeanMs !== undefined) result.sequence = atServer('sequence', result.sequence);
  return result;
}

/** The queries over the generated documents, then the coordinate engines over generated mmCIF entries (another generation of the same archive). */
async function runOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined) {
  const queries = await runQueries(dialect, databaseUrl);
  if (!STRUCTURES) return queries;
  const dataDir = join(work, dialect);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return { ...queries, coordinates: await coordinateEngines({ dialect, work, dataDir, databaseUrl, entries: STRUCTURES, env }) };
}

runMain(async () => {
  const results: Record<string, unknown> = { benchmark: 'pdb-search', entities: ENTITIES, entries: ENTRIES, structures: STRUCTURES, duration: DURATION, machine: machine() };
  try {
    await onEachDatabase(results, values.postgres, runOn);
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(work, { recursive: true, force: true });
    else log(`kept ${work}`);
  }
  writeResults('pdb-search', results);
});
