/**
 * The API references of E-utilities, PubChem, bioRxiv, PharmGKB, the AlphaFold DB and the RCSB PDB's
 * file and site hosts: each a valid
 * OpenAPI 3 document whose operations have their parameters, and whose examples answer 200 from the
 * demo data, asked as Swagger UI's "Try it out" asks. The AlphaFold DB also serves the 3D-Beacons
 * document it implements, pointed here.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceApp, tryItOut, type ReferenceApp } from './helpers/reference.js';

type Param = { name: string; in: string; required?: boolean; schema?: Record<string, unknown>; example?: unknown };
type Operation = { summary?: string; parameters?: Param[]; responses?: Record<string, unknown>; tags?: string[]; requestBody?: unknown };
type Doc = { openapi: string; info: { title: string; version: string }; servers: { url: string }[]; tags?: { name: string }[]; paths: Record<string, Record<string, Operation>> };

const ajv = new Ajv({ strict: false });

/** What an OpenAPI 3.0 validator checks of these documents' shape. */
function structureProblems(doc: Doc): string[] {
  const out: string[] = [];
  if (!/^3\.0\.\d+$/.test(doc.openapi)) out.push(`openapi ${doc.openapi}`);
  if (typeof doc.info?.title !== 'string' || typeof doc.info?.version !== 'string') out.push('info');
  if (!Array.isArray(doc.servers) || !doc.servers.every((s) => typeof s.url === 'string')) out.push('servers');
  const tags = new Set((doc.tags ?? []).map((t) => t.name));
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/')) out.push(`path ${path}`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item)) {
      const where = `${method} ${path}`;
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) out.push(`${where}: method`);
      if (!op.responses || !Object.keys(op.responses).length) out.push(`${where}: responses`);
      for (const t of op.tags ?? []) if (!tags.has(t)) out.push(`${where}: tag ${t} not declared`);
      const params = op.parameters ?? [];
      const keys = params.map((p) => `${p.in}:${p.name}`);
      if (new Set(keys).size !== keys.length) out.push(`${where}: a parameter twice`);
      for (const p of params) {
        if (!['path', 'query', 'header', 'cookie'].includes(p.in)) out.push(`${where}: ${p.name} in ${p.in}`);
        if (p.in === 'path' && (p.required !== true || !templated.includes(p.name))) out.push(`${where}: path parameter ${p.name}`);
        if (!p.schema || !ajv.validateSchema(p.schema)) out.push(`${where}: schema of ${p.name}`);
        else if (p.example !== undefined && !ajv.validate(p.schema, p.example)) out.push(`${where}: example of ${p.name} (${ajv.errorsText()})`);
      }
      for (const name of templated) if (!params.some((p) => p.in === 'path' && p.name === name)) out.push(`${where}: {${name}} not declared`);
    }
  }
  return out;
}

describe('API references of E-utilities, PubChem, bioRxiv, PharmGKB, the AlphaFold DB and the RCSB file and site hosts', () => {
  let r: ReferenceApp;
  beforeAll(async () => {
    r = await referenceApp();
  }, 240_000);
  afterAll(async () => {
    await r?.close();
  });

  it('are valid OpenAPI 3 documents, every described operation with a summary and its parameters', async () => {
    for (const s of r.services) {
      const doc = (await r.t.app.inject({ method: 'GET', url: `${s.mount}/openapi.json` })).json() as Doc;
      expect(structureProblems(doc), s.id).toEqual([]);
      const described = s.reference?.operations ?? [];
      expect(described.length, s.id).toBeGreaterThan(0);
      for (const op of described) {
        for (const method of op.methods ?? ['get']) {
          const o = doc.paths[op.path]?.[method];
          expect(o, `${s.id} ${method} ${op.path}`).toBeDefined();
          expect(o?.summary).not.toMatch(/^(GET|POST) \//);
          expect((o?.parameters ?? []).length + (o?.requestBody ? 1 : 0), `${s.id} ${op.path}`).toBeGreaterThan(0);
        }
      }
    }
  });

  it('keep the routes no operation describes, as generated from their paths', async () => {
    // Routes no operation describes are still listed: the E-utilities under /entrez/eutils, the DTDs.
    const e = (await r.t.app.inject({ method: 'GET', url: '/eutils/openapi.json' })).json() as Doc;
    expect(Object.keys(e.paths)).toEqual(expect.arrayContaining(['/esearch.fcgi', '/entrez/eutils/esearch.fcgi', '/eutils/dtd/{file}']));
    expect(e.paths['/esearch.fcgi']?.post?.requestBody).toBeDefined();
    // POST below /rest/pug/ is not described: its generated path stays.
    const pc = (await r.t.app.inject({ method: 'GET', url: '/pubchem/openapi.json' })).json() as Doc;
    expect(pc.paths['/rest/pug/{path}']?.post).toBeDefined();
    expect(pc.paths['/rest/pug/{path}']?.get).toBeUndefined();
  });

  it('answer 200 to each example, as "Try it out" sends it', async () => {
    for (const s of r.services) {
      for (const op of s.reference?.operations ?? []) {
        const { url, accept } = tryItOut(op);
        const res = await r.t.app.inject({ method: 'GET', url: `${s.mount}${url}`, headers: { accept } });
        const expected = op.needs ? 404 : 200;
        expect(res.statusCode, `${s.id} ${url}: ${res.body.slice(0, 300)}`).toBe(expected);
        // A 200 (not the service's 404 for an unknown path) says the operation is one a route answers.
        if (expected === 200)
          expect(
            op.answers.map((a) => a.split(';')[0]),
            `${s.id} ${url}`,
          ).toContain(String(res.headers['content-type']).split(';')[0]);
      }
    }
  }, 120_000);

  it('serves the 3D-Beacons document for the AlphaFold DB, its servers pointed here, and its summary path answers', async () => {
    const page = (await r.t.app.inject({ method: 'GET', url: '/alphafold/openapi' })).body;
    expect(page).toContain('/alphafold/openapi/official-0.json');
    const doc = (await r.t.app.inject({ method: 'GET', url: '/alphafold/openapi/official-0.json' })).json() as Doc;
    expect(doc.info).toMatchObject({ title: '3D Beacons API', version: '2.0.0' });
    expect(doc.servers).toEqual([{ url: 'http://localhost:80/alphafold/api', description: 'biomirror' }]);
    expect(Object.keys(doc.paths)).toContain('/uniprot/summary/{qualifier}.json');
    const res = await r.t.app.inject({ method: 'GET', url: '/alphafold/api/uniprot/summary/P69905.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().uniprot_entry.ac).toBe('P69905');
  });
});
