import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadAborted } from '../src/core/ingest/errors.js';
import { runLoad, type LoadOptions } from '../src/core/ingest/load.js';
import { describeLoad } from '../src/core/ingest/report.js';
import type { TestApp } from './helpers/app.js';
import { PROTOCOLS, addClient, addUser, api, clientToken, protoApp } from './helpers/protocols.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { folderOf, stopAfterFirstBatch } from './helpers/updates.js';

const proto = (id: number, title = `Protocol ${id}`) => ({
  id,
  title,
  uri: `protocol-${id}`,
  public: 1,
  published_on: 1600000000 + id,
  created_on: 1500000000,
  creator: { name: 'Someone', username: 'someone' },
  steps: [{ id: id * 10, components: [{ type_id: 1, source: { description: '<p>x</p>' } }] }],
});

const file = (items: unknown[]) => folderOf({ 'protocols.json': JSON.stringify(items) });

for (const target of STORES) {
  describe(`protocol update on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let token: string;
    beforeEach(async () => {
      s = await target.open();
      t = await protoApp(s);
      await addUser(s.db, 'someone');
      token = await clientToken(s.db, (await addClient(s.db, 'someone')).client);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });

    const load = (input: string, opts: LoadOptions = {}) => runLoad(s.db, t.generations, PROTOCOLS, input, opts);
    const ids = async (q = '') => {
      t.generations.invalidate();
      const r = await api(t.app, `/protocols/api/v3/protocols?filter=public&order_field=id&order_dir=asc&page_size=100${q}`, token);
      return (r.body.items as { id: number }[]).map((p) => p.id);
    };

    it('replaces a protocol fetched again and adds a new one; search follows', async () => {
      await load(file([proto(1), proto(2), proto(3)]));
      expect(await ids('&key=xylophone')).toEqual([]);
      const r = await load(file([proto(2, 'Xylophone calibration'), proto(4)]), { update: true });
      expect(r.changes?.parts.protocol).toEqual({ added: 1, replaced: 1, deleted: 0 });
      expect(await ids()).toEqual([1, 2, 3, 4]);
      expect(await ids('&key=xylophone')).toEqual([2]);
      const two = await api(t.app, '/protocols/api/v3/protocols/2', token);
      expect((two.body.protocol as { title: string }).title).toBe('Xylophone calibration');
      expect(describeLoad('protocols/protocols', r)[0]).toBe(`updated protocols/protocols: protocols 1 added, 1 replaced, 0 deleted; now 4 protocols (generation ${r.gen})`);
    });

    it('keeps what is served when an update stops part-way', async () => {
      await load(file([proto(1), proto(2)]));
      await expect(load(file([proto(2, 'Xylophone calibration'), proto(5), proto(6)]), { update: true, ...stopAfterFirstBatch() })).rejects.toThrow(LoadAborted);
      expect(await ids()).toEqual([1, 2]);
      expect(await ids('&key=xylophone')).toEqual([]);
    });
  });
}
