import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, type OpenedStore } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';
import { B, DEMO_DIR, REDIRECT, addClient, addUser, api, clientToken, loadProtocols, oauthTokens, protoApp } from './helpers/protocols.js';

type Doc = Record<string, unknown>;
const PUBLIC = [90001, 90002, 90003, 90004];
const PRIVATE = [90005, 90006, 90007]; // 90005, 90006: biomirror-demo; 90007: second-demo-user
const demoFile = (id: number): Doc => {
  const raw = JSON.parse(readFileSync(join(DEMO_DIR, `${id}.json`), 'utf8')) as Doc;
  return (raw.protocol as Doc | undefined) ?? raw;
};
const ids = (body: Doc) => (body.items as Doc[]).map((p) => p.id as number);
const uriOf = (id: number) => demoFile(id).uri as string;

for (const target of STORES) {
  describe(`protocols API on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let app: TestApp['app'];
    const tok: Record<string, string> = {};
    let appX: { clientId: string; secret: string };

    beforeAll(async () => {
      s = await target.open();
      t = await protoApp(s);
      app = t.app;
      await loadProtocols(s.db, t.generations);
      for (const u of ['biomirror-demo', 'second-demo-user', 'carol', 'demo-curator']) await addUser(s.db, u);
      for (const u of ['biomirror-demo', 'second-demo-user', 'carol', 'demo-curator']) {
        const { client } = await addClient(s.db, u, [REDIRECT], `${u} client`);
        tok[`client:${u}`] = await clientToken(s.db, client);
      }
      const x = await addClient(s.db, 'carol', [REDIRECT], 'App X');
      appX = { clientId: x.client.clientId, secret: x.secret };
      tok['oauthX:biomirror-demo'] = (await oauthTokens(app, appX, 'biomirror-demo', 'readwrite')).access;
      const y = await addClient(s.db, 'carol', [REDIRECT], 'App Y');
      tok['oauthY:second-demo-user'] = (await oauthTokens(app, { clientId: y.client.clientId, secret: y.secret }, 'second-demo-user', 'readwrite')).access;
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    /** Which private protocols a token reaches, endpoint by endpoint. */
    async function reach(token: string) {
      const lists = async (extra: string) => {
        const out = new Set<number>();
        for (const filter of ['user_private', 'shared_with_user']) {
          const r = await api(app, `protocols?filter=${filter}&page_size=100${extra}`, token);
          expect(r.status).toBe(200);
          for (const id of ids(r.body)) out.add(id);
        }
        return [...out].sort();
      };
      const single = async (path: (id: number) => string, ref: (id: number) => string) => {
        const out: number[] = [];
        for (const id of PRIVATE) {
          const r = await api(app, path(id), token);
          if (r.status === 200) out.push(id);
          else {
            // Not visible looks exactly like not there.
            expect(r.status).toBe(404);
            expect(r.body).toEqual({ status_code: 1404, error_message: `Protocol not found: ${ref(id)}` });
          }
        }
        return out;
      };
      // The public list and search never show private protocols, whatever the token.
      for (const q of ['filter=public&page_size=100', 'filter=public&key=draft&page_size=100']) {
        const r = await api(app, `protocols?${q}`, token);
        expect(ids(r.body).filter((id) => PRIVATE.includes(id))).toEqual([]);
      }
      return {
        list: await lists(''),
        search: await lists('&key=lab%20draft'),
        byId: await single((id) => `protocols/${id}`, String),
        byUri: await single((id) => `protocols/${uriOf(id)}`, uriOf),
        steps: await single((id) => `protocols/${id}/steps`, String),
        materials: await single((id) => `protocols/${id}/materials`, String),
        pdf: await single((id) => `/protocols/view/${uriOf(id)}.pdf`, uriOf),
      };
    }
    const everywhere = (v: number[]) => ({ list: v, search: v, byId: v, byUri: v, steps: v, materials: v, pdf: v });

    describe("who sees what: the spec's table, for every token kind", () => {
      it('a CLIENT_ACCESS_TOKEN sees public content plus its client user’s private content', async () => {
        expect(await reach(tok['client:biomirror-demo'] as string)).toEqual(everywhere([90005, 90006]));
        expect(await reach(tok['client:second-demo-user'] as string)).toEqual(everywhere([90007]));
        expect(await reach(tok['client:carol'] as string)).toEqual(everywhere([]));
      });

      it('an OAUTH_ACCESS_TOKEN sees the private content of the one user who authorized it, never another user of the same application', async () => {
        const x = tok['oauthX:biomirror-demo'] as string;
        expect(await reach(x)).toEqual(everywhere([90005, 90006]));
        expect(await reach(tok['oauthY:second-demo-user'] as string)).toEqual(everywhere([90007]));
        // second-demo-user authorizes App X too: each token still acts for its own user only.
        const second = (await oauthTokens(app, appX, 'second-demo-user', 'readwrite')).access;
        expect(await reach(x)).toEqual(everywhere([90005, 90006]));
        expect(await reach(second)).toEqual(everywhere([90007]));
        for (const id of [90007]) expect((await api(app, `protocols/${id}`, x)).status).toBe(404);
        const shared = await api(app, 'protocols?filter=shared_with_user', x);
        expect(ids(shared.body)).toEqual([]);
        const own = await api(app, 'protocols?filter=user_private', second);
        expect(ids(own.body)).toEqual([90007]);
        // App Y was authorized by second-demo-user only: unchanged.
        expect(await reach(tok['oauthY:second-demo-user'] as string)).toEqual(everywhere([90007]));
        // A client token of App X's owner is not an OAuth token: only carol's own content.
        expect(await reach(tok['client:carol'] as string)).toEqual(everywhere([]));
      });

      it('public protocols are seen by every token and by the PDF without one', async () => {
        for (const token of Object.values(tok)) {
          const r = await api(app, 'protocols?filter=public&page_size=100', token);
          expect(ids(r.body).sort()).toEqual(PUBLIC);
        }
        const pdf = await api(app, `/protocols/view/${uriOf(90001)}.pdf`);
        expect(pdf.status).toBe(200);
        for (const id of PRIVATE) expect((await api(app, `/protocols/view/${uriOf(id)}.pdf`)).status).toBe(404);
      });
    });

    describe('GET /protocols (list and search)', () => {
      const T = () => tok['client:biomirror-demo'] as string;

      it('answers the upstream envelope with items, total, total_pages and status_code', async () => {
        const r = await api(app, 'protocols?filter=public', T());
        expect(r.status).toBe(200);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        expect(Object.keys(r.body)).toEqual(['items', 'total', 'total_pages', 'status_code']);
        expect(r.body).toMatchObject({ total: 4, total_pages: 1, status_code: 0 });
        const lysis = (r.body.items as Doc[]).find((p) => p.id === 90002);
        expect(lysis).toEqual({ ...demoFile(90002) });
      });

      it('takes the filter the way the upstream examples write it, in quotes', async () => {
        const r = await api(app, 'protocols?filter=%22public%22', T());
        expect(r.status).toBe(200);
        expect(r.body.total).toBe(4);
      });

      it('lists a user’s own public protocols with user_public', async () => {
        const r = await api(app, 'protocols?filter=user_public', tok['client:demo-curator']);
        expect(ids(r.body).sort()).toEqual(PUBLIC);
        const none = await api(app, 'protocols?filter=user_public', T());
        expect(none.body).toMatchObject({ items: [], total: 0, total_pages: 0 });
      });

      it('orders by activity (default), date, name and id, both ways', async () => {
        const order = async (q: string) => ids((await api(app, `protocols?filter=public&${q}`, T())).body);
        expect(await order('')).toEqual([90004, 90003, 90002, 90001]);
        expect(await order('order_field=activity&order_dir=asc')).toEqual([90001, 90002, 90003, 90004]);
        expect(await order('order_field=date&order_dir=desc')).toEqual([90004, 90003, 90002, 90001]);
        expect(await order('order_field=name&order_dir=asc')).toEqual([90003, 90004, 90002, 90001]);
        expect(await order('order_field=name&order_dir=desc')).toEqual([90001, 90002, 90004, 90003]);
        expect(await order('order_field=id&order_dir=asc')).toEqual([90001, 90002, 90003, 90004]);
      });

      it('pages with page_size and page_id', async () => {
        const p1 = await api(app, 'protocols?filter=public&order_field=id&order_dir=asc&page_size=3&page_id=1', T());
        expect(p1.body).toMatchObject({ total: 4, total_pages: 2 });
        expect(ids(p1.body)).toEqual([90001, 90002, 90003]);
        const p2 = await api(app, 'protocols?filter=public&order_field=id&order_dir=asc&page_size=3&page_id=2', T());
        expect(ids(p2.body)).toEqual([90004]);
        const p3 = await api(app, 'protocols?filter=public&page_size=3&page_id=3', T());
        expect(p3.body).toMatchObject({ items: [], total: 4, total_pages: 2 });
      });

      it('searches title, description and authors with key: every word, as a prefix, ignoring case and accents', async () => {
        const search = async (key: string) => ids((await api(app, `protocols?filter=public&order_field=id&order_dir=asc&key=${encodeURIComponent(key)}`, T())).body);
        expect(await search('agarose')).toEqual([90003, 90004]);
        expect(await search('AGARÓSE')).toEqual([90003, 90004]);
        expect(await search('agar')).toEqual([90003, 90004]);
        expect(await search('electrophoresis dna')).toEqual([90004]);
        expect(await search('buffer tae')).toEqual([90003]);
        expect(await search('TAE')).toEqual([90003, 90004]);
        expect(await search('escherichia')).toEqual([90002]);
        expect(await search('curator')).toEqual(PUBLIC);
        expect(await search('zzzz')).toEqual([]);
        const symbols = await api(app, `protocols?filter=public&key=${encodeURIComponent('!!! ###')}`, T());
        expect(symbols.body).toMatchObject({ items: [], total: 0 });
        const empty = await api(app, 'protocols?filter=public&key=', T());
        expect(empty.body.total).toBe(4);
      });

      it('keeps only the asked fields', async () => {
        const r = await api(app, 'protocols?filter=public&fields=id,title,nosuch&order_field=id&order_dir=asc&page_size=1', T());
        expect(r.body.items).toEqual([{ id: 90001, title: 'Phosphate-buffered saline (PBS), 1x, 1 L' }]);
      });

      it('refuses every wrong parameter with the service body, naming it', async () => {
        const cases: [string, number, RegExp][] = [
          ['', 1, /Missing or empty parameter "filter": one of public, user_public, user_private, shared_with_user/],
          ['filter=', 1, /"filter"/],
          ['filter=everything', 1, /Invalid value "everything" for parameter "filter"/],
          ['filter=public&order_field=popularity', 1302, /Wrong order field "popularity"/],
          ['filter=public&order_dir=up', 1, /parameter "order_dir": must be one of asc, desc/],
          ['filter=public&page_size=0', 1, /"page_size": must be a whole number from 1 to 100/],
          ['filter=public&page_size=101', 1, /"page_size"/],
          ['filter=public&page_size=ten', 1, /"page_size"/],
          ['filter=public&page_size=-1', 1, /"page_size"/],
          ['filter=public&page_id=0', 1, /"page_id"/],
          ['filter=public&page_id=1.5', 1, /"page_id"/],
          ['filter=public&content_format=pdf', 1, /"content_format": must be one of html, markdown, json/],
          ['filter=public&fields=id,Title!', 1, /"fields"/],
          [`filter=public&key=${'k'.repeat(501)}`, 1, /"key"/],
        ];
        for (const [q, code, message] of cases) {
          const r = await api(app, `protocols?${q}`, T());
          expect(r.status, q).toBe(400);
          expect(r.body.status_code, q).toBe(code);
          expect(r.body.error_message, q).toMatch(message);
        }
      });
    });

    describe('one protocol, its steps and materials', () => {
      const T = () => tok['client:biomirror-demo'] as string;

      it('finds a protocol by id, uri or DOI in any usual spelling', async () => {
        const want = demoFile(90002);
        for (const ref of [
          '90002',
          want.uri as string,
          'dx.doi.org/10.5555/biomirror.demo.0002',
          '10.5555/biomirror.demo.0002',
          encodeURIComponent('https://doi.org/10.5555/biomirror.demo.0002'),
          encodeURIComponent('doi:10.5555/BIOMIRROR.demo.0002'),
        ]) {
          const r = await api(app, `protocols/${ref}`, T());
          expect(r.status, ref).toBe(200);
          expect(r.body).toEqual({ protocol: want, status_code: 0 });
        }
        const steps = await api(app, 'protocols/dx.doi.org/10.5555/biomirror.demo.0002/steps', T());
        expect(steps.body).toEqual({ steps: want.steps, status_code: 0 });
      });

      it('unwraps a saved Get Protocol response when loading it', async () => {
        const r = await api(app, 'protocols/90003', T());
        expect((r.body.protocol as Doc).title).toBe('50x TAE buffer, 1 L');
        expect(r.body.protocol).not.toHaveProperty('protocol');
      });

      it('answers steps and materials as the upstream does', async () => {
        const steps = await api(app, 'protocols/90001/steps', T());
        expect(Object.keys(steps.body)).toEqual(['steps', 'status_code']);
        expect((steps.body.steps as Doc[]).length).toBe(4);
        expect((steps.body.steps as Doc[])[1]).toMatchObject({ id: 9000102, previous_id: 9000101 });
        const materials = await api(app, 'protocols/90001/materials', T());
        expect(materials.body).toEqual({ materials: demoFile(90001).materials, status_code: 0 });
      });

      it('gives rich text as HTML, Markdown or Draft.js JSON with content_format', async () => {
        const html = await api(app, 'protocols/90001?content_format=html', T());
        expect((html.body.protocol as Doc).description).toBe(demoFile(90001).description);
        const md = await api(app, 'protocols/90001?content_format=markdown', T());
        expect((md.body.protocol as Doc).description).toBe(
          'Isotonic phosphate buffer, pH 7.4, for washing and diluting cells.\n\n*Demo protocol written for biomirror: its identifiers, people and dates are generated; the procedure follows standard laboratory practice.*',
        );
        const mdSteps = await api(app, 'protocols/90001/steps?content_format=markdown', T());
        const text = (i: number) => (((mdSteps.body.steps as Doc[])[i]?.components as Doc[])[0]?.source as Doc).description;
        expect(text(0)).toBe('Dissolve in 800 mL of distilled water:\n\n- 8 g NaCl\n- 0.2 g KCl\n- 1.44 g Na<sub>2</sub>HPO<sub>4</sub>\n- 0.24 g KH<sub>2</sub>PO<sub>4</sub>');
        expect(text(1)).toBe('Adjust the pH to **7.4** with HCl.');
        const json = await api(app, 'protocols/90001/steps?content_format=json', T());
        const draft = JSON.parse((((json.body.steps as Doc[])[1]?.components as Doc[])[0]?.source as Doc).description as string);
        expect(draft.blocks).toEqual([
          {
            key: expect.stringMatching(/^[0-9a-z]{5}$/),
            text: 'Adjust the pH to 7.4 with HCl.',
            type: 'unstyled',
            depth: 0,
            inlineStyleRanges: [{ offset: 17, length: 3, style: 'BOLD' }],
            entityRanges: [],
            data: {},
          },
        ]);
        const bad = await api(app, 'protocols/90001/steps?content_format=rtf', T());
        expect(bad.status).toBe(400);
      });

      it('answers 404 with the service body for an unknown protocol or path', async () => {
        for (const ref of ['123456', 'no-such-protocol', '10.5555/none', 'bad%20uri', '10.5555%2F%00', '%00']) {
          const r = await api(app, `protocols/${ref}`, T());
          expect(r.status, ref).toBe(404);
          expect(r.body).toEqual({ status_code: 1404, error_message: `Protocol not found: ${decodeURIComponent(ref)}` });
        }
        const route = await api(app, 'nothing/here', T());
        expect(route.status).toBe(404);
        expect(route.body.status_code).toBe(1404);
        expect((await api(app, 'protocols/90001/publish', T())).status).toBe(404);
        expect((await api(app, 'protocols/90001/steps', T(), { method: 'POST', payload: {} })).status).toBe(404);
      });

      it('shows a client to its owner (secrets cannot be read back)', async () => {
        const list = await s.db.query<{ client_id: string }>("SELECT client_id FROM proto_clients WHERE name = 'biomirror-demo client'");
        const id = list[0]?.client_id as string;
        const r = await api(app, `oauth/clients/${id}`, T());
        expect(r.status).toBe(200);
        expect(r.body).toEqual({
          client: {
            client_id: id,
            client_secret: null,
            grant_type: 'authorization_code',
            scope: 'readwrite',
            redirect_url: REDIRECT,
            token: null,
            name: 'biomirror-demo client',
            redirect_urls: [REDIRECT],
          },
          status_code: 0,
        });
        expect((await api(app, `oauth/clients/${id}`, tok['client:carol'])).status).toBe(404);
        expect((await api(app, 'oauth/clients/%00', T())).status).toBe(404);
      });
    });

    describe('creating, changing and publishing protocols', () => {
      const W = () => tok['oauthX:biomirror-demo'] as string;
      let created: Doc;

      it('creates a private protocol for the token’s user', async () => {
        const r = await api(app, 'protocols', W(), {
          method: 'POST',
          payload: {
            title: 'Western blot transfer (wet)',
            description: '<p>Moving proteins from a gel to a <b>membrane</b>.</p>',
            authors: ['Demo User', { name: 'A. Colleague', affiliation: 'Lab' }],
            steps: ['<p>Soak the membrane.</p>', { title: 'Assemble', description: 'Build the sandwich.' }],
            materials: ['Transfer buffer', { name: 'Membrane', sku: 'M-1', vendor: 'Vendor Co' }],
          },
        });
        expect(r.status).toBe(200);
        created = r.body.protocol as Doc;
        expect(created).toMatchObject({ title: 'Western blot transfer (wet)', public: 0, published_on: 0, doi: null, number_of_steps: 2 });
        expect(created.id).toBeGreaterThanOrEqual(1_000_000_000);
        expect(created.uri).toMatch(/^western-blot-transfer-wet-[0-9a-f]{7}$/);
        expect((created.creator as Doc).username).toBe('biomirror-demo');
        expect((created.authors as Doc[]).map((a) => a.name)).toEqual(['Demo User', 'A. Colleague']);
        const steps = created.steps as Doc[];
        expect((steps[0]?.components as Doc[])[0]).toMatchObject({ type_id: 1, title: 'Description', source: { description: '<p>Soak the membrane.</p>' } });
        expect((steps[1]?.components as Doc[]).map((c) => c.type_id)).toEqual([6, 1]);
        expect(steps[1]?.previous_guid).toBe(steps[0]?.guid);
        expect((created.materials as Doc[])[1]).toMatchObject({ name: 'Membrane', sku: 'M-1', vendor: { name: 'Vendor Co' } });

        const mine = await api(app, 'protocols?filter=user_private&key=western', W());
        expect(ids(mine.body)).toEqual([created.id]);
        expect((await api(app, `protocols/${created.uri}`, W())).status).toBe(200);
        expect((await api(app, `protocols/${created.id}`, tok['client:carol'])).status).toBe(404);
        const pub = await api(app, 'protocols?filter=public&key=western', W());
        expect(pub.body.total).toBe(0);
      });

      it('takes a form body too', async () => {
        const r = await app.inject({
          method: 'POST',
          url: `${B}/protocols`,
          headers: { authorization: `Bearer ${W()}`, 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'title=Form+made&steps=First&steps=Second',
        });
        expect(r.statusCode).toBe(200);
        expect(r.json().protocol).toMatchObject({ title: 'Form made', number_of_steps: 2 });
      });

      it('needs a token of scope readwrite, and a sound body', async () => {
        const read = await api(app, 'protocols', tok['client:biomirror-demo'], { method: 'POST', payload: { title: 'x' } });
        expect(read.status).toBe(403);
        expect(read.body.status_code).toBe(1203);
        expect(read.headers['www-authenticate']).toContain('insufficient_scope');
        const readOauth = (await oauthTokens(app, appX, 'carol')).access;
        expect((await api(app, 'protocols', readOauth, { method: 'POST', payload: { title: 'x' } })).status).toBe(403);
        const cases: [unknown, RegExp][] = [
          [{}, /Missing or empty parameter "title"/],
          [{ title: '  ' }, /"title"/],
          [{ title: 7 }, /"title" must be a string/],
          [{ title: 'x', colour: 'red' }, /unknown field "colour"/],
          [{ title: 'x', steps: [123] }, /steps\[0\] must be a string or an object/],
          [{ title: 'x', steps: [{}] }, /steps\[0\] needs a "description"/],
          [{ title: 'x', steps: 'not-an-array-but-a-string-is-one-step' }, /^$/],
          [{ title: 'x', materials: [{ sku: 'no name' }] }, /materials\[0\]/],
          [{ title: 'x', authors: [{}] }, /authors\[0\]/],
          [['title'], /send a JSON object or a form/],
        ];
        for (const [payload, message] of cases) {
          const r = await api(app, 'protocols', W(), { method: 'POST', payload });
          if (message.source === '^$') {
            expect(r.status).toBe(200);
            continue;
          }
          expect(r.status, JSON.stringify(payload)).toBe(400);
          expect(r.body.status_code).toBe(1);
          expect(r.body.error_message, JSON.stringify(payload)).toMatch(message);
        }
        const broken = await app.inject({ method: 'POST', url: `${B}/protocols`, headers: { authorization: `Bearer ${W()}`, 'content-type': 'application/json' }, payload: '{"title": ' });
        expect(broken.statusCode).toBe(400);
        expect(broken.json().status_code).toBe(1);
      });

      it('updates with PUT or PATCH, as the owner only', async () => {
        const put = await api(app, `protocols/${created.id}`, W(), { method: 'PUT', payload: { title: 'Semi-dry transfer' } });
        expect(put.status).toBe(200);
        expect(put.body.protocol).toMatchObject({ id: created.id, uri: created.uri, title: 'Semi-dry transfer', number_of_steps: 2 });
        const patch = await api(app, `protocols/${created.uri}`, W(), { method: 'PATCH', payload: { steps: ['Only step'] } });
        expect(patch.body.protocol).toMatchObject({ title: 'Semi-dry transfer', number_of_steps: 1 });
        expect((await api(app, 'protocols?filter=user_private&key=western', W())).body.total).toBe(0);
        expect((await api(app, 'protocols?filter=user_private&key=semi', W())).body.total).toBe(1);
        // second-demo-user authorized App X too; its token acts for that user, who cannot see the draft.
        const second = (await oauthTokens(app, appX, 'second-demo-user', 'readwrite')).access;
        expect((await api(app, `protocols/${created.id}`, second)).status).toBe(404);
        expect((await api(app, `protocols/${created.id}`, second, { method: 'PUT', payload: { title: 'mine now' } })).status).toBe(404);
        // A protocol they can see but do not own: refused as not theirs.
        const notOwner = await api(app, 'protocols/90001', second, { method: 'PUT', payload: { title: 'mine now' } });
        expect(notOwner.status).toBe(403);
        expect(notOwner.body.status_code).toBe(1203);
        const invisible = await api(app, `protocols/${created.id}`, tok['oauthY:second-demo-user'], { method: 'PUT', payload: { title: 'x' } });
        expect(invisible.status).toBe(404);
        const reserved = await api(app, `protocols/${created.id}`, W(), { method: 'PUT', payload: { public: 1 } });
        expect(reserved.status).toBe(400);
      });

      it('publishes: the protocol becomes public, once', async () => {
        const r = await api(app, `protocols/${created.id}/publish`, W(), { method: 'POST' });
        expect(r.status).toBe(200);
        expect(r.body.protocol).toMatchObject({ public: 1 });
        expect((r.body.protocol as Doc).published_on).toBeGreaterThan(0);
        expect((await api(app, `protocols/${created.id}`, tok['client:carol'])).status).toBe(200);
        expect(ids((await api(app, 'protocols?filter=public&key=semi', tok['client:carol'])).body)).toEqual([created.id]);
        expect((await api(app, `/protocols/view/${created.uri}.pdf`)).status).toBe(200);
        const again = await api(app, `protocols/${created.id}/publish`, W(), { method: 'POST' });
        expect(again.status).toBe(400);
        expect(again.body.error_message).toBe(`Protocol ${created.id} is already published`);
      });

      it('changes a loaded protocol as a local copy that wins over the load, also after a reload', async () => {
        const before = await api(app, 'protocols?filter=user_private&page_size=100', W());
        const r = await api(app, 'protocols/90005', W(), { method: 'PATCH', payload: { title: 'Plasmid miniprep, revised' } });
        expect(r.status).toBe(200);
        const after = await api(app, 'protocols?filter=user_private&page_size=100', W());
        expect(after.body.total).toBe(before.body.total);
        expect((after.body.items as Doc[]).filter((p) => p.id === 90005).map((p) => p.title)).toEqual(['Plasmid miniprep, revised']);
        expect((await api(app, `protocols/${uriOf(90005)}`, W())).body.protocol).toMatchObject({ title: 'Plasmid miniprep, revised' });
        expect((await api(app, 'protocols?filter=user_private&key=alkaline', W())).body.total).toBe(0);
        await loadProtocols(s.db, t.generations);
        t.generations.invalidate();
        expect((await api(app, 'protocols/90005', W())).body.protocol).toMatchObject({ title: 'Plasmid miniprep, revised' });
        const pub = await api(app, 'protocols/90006/publish', W(), { method: 'POST' });
        expect(pub.status).toBe(200);
        const list = await api(app, 'protocols?filter=public&page_size=100', tok['client:carol']);
        expect(ids(list.body)).toContain(90006);
        expect(ids(list.body).filter((id) => id === 90006)).toHaveLength(1);
      });
    });
  });
}
