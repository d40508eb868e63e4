import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCifPool, parseCif, atomCount, cifPoolState } from '../src/core/mmcif/index.js';
import { ServiceError } from '../src/core/http/errors.js';
import { sendServiceError } from '../src/core/http/send.js';
import { fileHostRoutes } from '../src/services/pdb/files/routes.js';
import { siteRoutes } from '../src/services/pdb/www/routes.js';
import { conversionBudget } from '../src/services/pdb/files/handlers.js';
import { TWO_OPERATORS, fixture, generatedCif, gz, memorySource } from './rcsb-files-fixtures.js';
import { missingBiopython } from './helpers/tools.js';

const noBiopython = missingBiopython();
const realCifGz = fixture('4hhb.cif.gz');
const realCif = gunzipSync(realCifGz);
const realPdb = gunzipSync(fixture('4hhb.pdb.gz')).toString('utf8');
const BIG = gz(generatedCif({ id: '9ZZC', chains: [{ label: 'A', auth: 'A', entity: '1', residues: 25_001 }] }));
const SF = gz('data_r4hhbsf\n#\n_cell.entry_id 4HHB\n_cell.length_a 63.150\n#\n');

const source = memorySource(
  {
    '4HHB': realCifGz,
    '9ZZA': gz(generatedCif(TWO_OPERATORS)),
    '9ZZC': BIG,
    '9ZZT': realCifGz.subarray(0, Math.floor(realCifGz.length / 2)),
    '9ZZG': new Uint8Array(Buffer.from('this is not a structure file\n')),
    '9ZZD': gz(generatedCif({ id: '9ZZD', chains: [{ label: 'A', auth: 'A', entity: '1', residues: 20_000 }] })),
  },
  { '4HHB': SF },
);

// A store that fails (its database or file store down) for one id.
const failing = { ...source, cif: (id: string) => (id === '9ZZX' ? Promise.reject(new Error('store unreachable')) : source.cif(id)) };

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify({ logger: false });
  // The routes throw their hosts' error pages; the platform sends them (as buildApp's handler does).
  app.setErrorHandler((err, _req, reply) => (err instanceof ServiceError ? sendServiceError(reply, err) : reply.send(err)));
  await app.register(async (f) => fileHostRoutes(f, failing), { prefix: '/rcsb/files' });
  await app.register(async (f) => siteRoutes(f, failing), { prefix: '/rcsb/www' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await closeCifPool();
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const ATOMS = /^(ATOM {2}|HETATM|TER {3})/;
const atomLines = (text: string) => text.split('\n').filter((l) => ATOMS.test(l));

describe('stored mmCIF', () => {
  it('serves .cif inflated for clients that do not take gzip, with an ETag and byte ranges', async () => {
    const r = await get('/rcsb/files/download/4hhb.cif');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/octet-stream');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.rawPayload.equals(realCif)).toBe(true);
    const etag = String(r.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{20}-cif"$/);
    expect((await get('/rcsb/files/download/4hhb.cif', { 'if-none-match': etag })).statusCode).toBe(304);
    const part = await get('/rcsb/files/download/4hhb.cif', { range: 'bytes=0-9' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${realCif.length}`);
    expect(part.body).toBe('data_4HHB\n');
    const tail = await get('/rcsb/files/download/4hhb.cif', { range: 'bytes=-2' });
    expect(tail.rawPayload.equals(realCif.subarray(-2))).toBe(true);
    const beyond = await get('/rcsb/files/download/4hhb.cif', { range: `bytes=${realCif.length}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${realCif.length}`);
  });

  it('passes the stored gzip through with Content-Encoding when the client takes it', async () => {
    const r = await get('/rcsb/files/download/4HHB.cif', { 'accept-encoding': 'gzip, deflate' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers.vary).toBe('Accept-Encoding');
    expect(r.rawPayload.equals(realCifGz)).toBe(true);
    const refused = await get('/rcsb/files/download/4HHB.cif', { 'accept-encoding': 'gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.rawPayload.equals(realCif)).toBe(true);
  });

  it('serves .cif.gz as stored, structure factors where loaded, and text on /view', async () => {
    const r = await get('/rcsb/files/download/4hhb.cif.gz');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.rawPayload.equals(realCifGz)).toBe(true);
    const sf = await get('/rcsb/files/download/4hhb-sf.cif');
    expect(sf.statusCode).toBe(200);
    expect(sf.body).toContain('_cell.length_a 63.150');
    expect((await get('/rcsb/files/download/9zza-sf.cif')).statusCode).toBe(404);
    const view = await get('/rcsb/files/view/4hhb.cif');
    expect(view.headers['content-type']).toBe('text/plain');
    expect(view.rawPayload.equals(realCif)).toBe(true);
    expect((await get('/rcsb/files/view/4hhb.cif.gz')).statusCode).toBe(404);
  });

  it('answers HEAD with the headers and no body', async () => {
    const r = await app.inject({ method: 'HEAD', url: '/rcsb/files/download/4hhb.cif' });
    expect(r.statusCode).toBe(200);
    expect(r.headers.etag).toBeDefined();
    expect(r.body).toBe('');
  });
});

describe('derived files', () => {
  it('writes .pdb and .pdb.gz with the real file’s atom records', async () => {
    const r = await get('/rcsb/files/download/4hhb.pdb');
    expect(r.statusCode).toBe(200);
    expect(atomLines(r.body)).toEqual(atomLines(realPdb));
    const packed = await get('/rcsb/files/download/4hhb.pdb.gz');
    expect(gunzipSync(packed.rawPayload).toString('utf8')).toBe(r.body);
    // The second request is served from the cache, byte for byte.
    expect((await get('/rcsb/files/download/4hhb.pdb')).body).toBe(r.body);
  });

  it('writes .bcif that a BinaryCIF reader decodes to the entry’s atoms', async () => {
    const r = await get('/rcsb/files/download/4hhb.bcif');
    expect(r.statusCode).toBe(200);
    expect(r.rawPayload[0]! & 0xf0).toBe(0x80);
    expect(atomCount(await parseCif(r.rawPayload))).toBe(4779);
    const packed = await get('/rcsb/files/download/4hhb.bcif.gz');
    expect(gunzipSync(packed.rawPayload).equals(r.rawPayload)).toBe(true);
  });

  it('builds assembly files, and 404s an assembly the entry does not define', async () => {
    const cif = await get('/rcsb/files/download/4hhb-assembly1.cif');
    expect(cif.statusCode).toBe(200);
    expect(cif.body.startsWith('data_XXXX')).toBe(true);
    const real = gunzipSync(fixture('4hhb-assembly1.cif.gz')).toString('utf8');
    const atoms = (t: string) =>
      t
        .split('\n')
        .filter((l) => /^(ATOM|HETATM) /.test(l))
        .map((l) => l.split(/\s+/).join(' '));
    expect(atoms(cif.body)).toEqual(atoms(real));
    const pdb1 = await get('/rcsb/files/download/4hhb.pdb1.gz');
    expect(atomLines(gunzipSync(pdb1.rawPayload).toString('utf8'))).toEqual(atomLines(gunzipSync(fixture('4hhb.pdb1.gz')).toString('utf8')));
    const two = await get('/rcsb/files/download/9ZZA-assembly2.cif.gz');
    expect(gunzipSync(two.rawPayload).toString('utf8')).toContain('A-2-3');
    for (const url of ['/rcsb/files/download/4hhb.pdb2', '/rcsb/files/download/4hhb-assembly2.cif', '/rcsb/files/download/9zza.pdb3']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('runs one conversion for many simultaneous requests of the same file', async () => {
    const before = cifPoolState.completed;
    const answers = await Promise.all(Array.from({ length: 8 }, () => get('/rcsb/files/download/9zza.pdb')));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    expect(cifPoolState.completed - before).toBe(1);
  });

  it(`serves a .pdb that Biopython reads over HTTP${noBiopython}`, { skip: Boolean(noBiopython) }, async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const script = [
      'import io, sys, urllib.request',
      'from Bio.PDB import PDBParser',
      `text = urllib.request.urlopen("${address}/rcsb/files/download/4hhb.pdb").read().decode()`,
      's = PDBParser(QUIET=True).get_structure("4hhb", io.StringIO(text))',
      'print(len(list(s.get_atoms())), "".join(sorted(c.id for c in s[0])))',
    ].join('\n');
    // Asynchronously: the server answering Python runs on this thread.
    const r = await promisify(execFile)('/usr/bin/python3', ['-c', script], { encoding: 'utf8', timeout: 20_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('4779 ABCD');
  });
});

describe('errors', () => {
  it('answers an unknown entry, a malformed name and a wrong extension with the host’s 404 page', async () => {
    for (const url of [
      '/rcsb/files/download/1abc.cif',
      '/rcsb/files/download/hello.cif',
      '/rcsb/files/download/4hhb.CIF',
      '/rcsb/files/download/4hhb.txt',
      '/rcsb/files/download/%2e%2e%2fetc.cif',
      '/rcsb/files/download/4hhb.pdb0',
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type']).toBe('text/html');
      expect(r.body).toContain('<title>PDB Archive over AWS</title>');
      expect(r.body).toContain('404 Not Found');
    }
  });

  it('has no legacy .pdb for an entry past 99,999 atoms, but serves its mmCIF and BinaryCIF', async () => {
    expect((await get('/rcsb/files/download/9zzc.pdb')).statusCode).toBe(404);
    expect((await get('/rcsb/files/download/9zzc.pdb.gz')).statusCode).toBe(404);
    expect((await get('/rcsb/files/download/9zzc.pdb1')).statusCode).toBe(404);
    expect((await get('/rcsb/files/download/9zzc.cif.gz')).statusCode).toBe(200);
    const bcif = await get('/rcsb/files/download/9zzc.bcif');
    expect(bcif.statusCode).toBe(200);
    expect(atomCount(await parseCif(bcif.rawPayload))).toBe(100_004);
  });

  it('never answers a truncated or corrupt stored file with a 500 or a hang', async () => {
    for (const id of ['9zzt', '9zzg']) {
      for (const ext of ['.cif', '.cif.gz', '.pdb', '.bcif', '-assembly1.cif', '.pdb1']) {
        const r = await get(`/rcsb/files/download/${id}${ext}`);
        expect(r.statusCode, `${id}${ext}`).toBe(id === '9zzg' && ext.startsWith('.cif') ? 200 : 404);
      }
    }
    expect((await get('/rcsb/www/fasta/entry/9ZZT')).statusCode).toBe(404);
  });
});

describe('time budget and store faults', () => {
  it('answers 503 with Retry-After for a conversion past its budget, and converts again afterwards', async () => {
    const saved = conversionBudget.ms;
    conversionBudget.ms = 1;
    try {
      const r = await get('/rcsb/files/download/9zzd.bcif');
      expect(r.statusCode).toBe(503);
      expect(r.headers['retry-after']).toBe('5');
      expect(r.body).toContain('503 Service Unavailable');
    } finally {
      conversionBudget.ms = saved;
    }
    const again = await get('/rcsb/files/download/9zzd.bcif');
    expect(again.statusCode).toBe(200);
    expect(atomCount(await parseCif(again.rawPayload))).toBe(80_000);
  });

  it('answers 503, not 500, when the store fails', async () => {
    for (const url of ['/rcsb/files/download/9zzx.cif', '/rcsb/files/download/9zzx.pdb', '/rcsb/www/fasta/entry/9ZZX']) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(503);
    }
  });
});

describe('FASTA', () => {
  it('writes one record per polymer entity with the real header line', async () => {
    const r = await get('/rcsb/www/fasta/entry/4hhb');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = r.body.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('>4HHB_1|Chains A, C|Hemoglobin subunit alpha|Homo sapiens (9606)');
    expect(lines[2]).toBe('>4HHB_2|Chains B, D|Hemoglobin subunit beta|Homo sapiens (9606)');
    expect(lines[1]).toHaveLength(141);
    expect(lines[3]).toMatch(/^VHLTPEEKSAVTALWGKV[A-Z]+KYH$/);
  });

  it('downloads as an attachment, by entity and by chain, with auth ids where they differ', async () => {
    const d = await get('/rcsb/www/fasta/entry/4HHB/download');
    expect(d.headers['content-disposition']).toBe('attachment; filename="rcsb_pdb_4HHB.fasta"');
    const entity = await get('/rcsb/www/fasta/entity/4HHB_2/download');
    expect(entity.body.split('\n')[0]).toBe('>4HHB_2|Chains B, D|Hemoglobin subunit beta|Homo sapiens (9606)');
    const chain = await get('/rcsb/www/fasta/chain/4HHB.C');
    expect(chain.body.split('\n')[0]).toBe('>4HHB_1|Chain C|Hemoglobin subunit alpha|Homo sapiens (9606)');
    const gen = await get('/rcsb/www/fasta/entry/9zza');
    expect(gen.body).toBe('>9ZZA_1|Chains A[auth B], B[auth C]|Generated protein one|Homo sapiens (9606)\nGGG\n');
  });

  it('answers unknown and malformed ids with the site’s texts', async () => {
    const unknown = await get('/rcsb/www/fasta/entry/1ABC');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe('No fasta files were found.');
    expect((await get('/rcsb/www/fasta/entity/4HHB_9')).body).toBe('No fasta files were found.');
    const bad = await get('/rcsb/www/fasta/entry/not-an-id');
    expect(bad.statusCode).toBe(404);
    expect(bad.body).toBe('No valid PDB IDs were submitted.');
  });
});
