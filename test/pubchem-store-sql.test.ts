/**
 * Which of a batch's keys a load has stored already (store/sql.ts `existing`): read as ranges where
 * the keys run close together, as lists elsewhere, with the same answer either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existing } from '../src/services/pubchem/store/sql.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

describe.each(STORES)('keys already stored on $name', (target) => {
  let s: OpenedStore;
  const stored = [5, 6, 7, 20, 1000, 1001, 1002, 1003, 1010, 50_000];

  beforeAll(async () => {
    s = await target.open();
    await s.db.exec('CREATE TABLE seen_keys (cid INTEGER PRIMARY KEY)');
    await s.db.transaction((tx) =>
      tx.insertMany(
        'seen_keys',
        ['cid'],
        stored.map((c) => [c]),
      ),
    );
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  const both = async (ids: number[]) => {
    const ranged = [...(await existing(s.db, 'seen_keys', 'cid', ids, true))].sort((a, b) => a - b);
    const listed = [...(await existing(s.db, 'seen_keys', 'cid', ids))].sort((a, b) => a - b);
    expect(ranged).toEqual(listed);
    return ranged;
  };

  it('finds the stored keys of a run of consecutive ids, and none of the stored keys not asked for', async () => {
    // 1000-1010 is one run read as a range; 1010 is stored but not asked for.
    expect(await both([1000, 1001, 1002, 1004, 1005, 1006, 1007, 1008, 1009, 1003])).toEqual([1000, 1001, 1002, 1003]);
  });

  it('finds them across two runs far apart (a transaction holds batches of two files) and loose ids', async () => {
    const ids = [...Array.from({ length: 12 }, (_, i) => i), ...Array.from({ length: 12 }, (_, i) => 995 + i), 20, 50_000, 77];
    expect(await both(ids)).toEqual([5, 6, 7, 20, 1000, 1001, 1002, 1003, 50_000]);
  });

  it('answers an empty batch and one id', async () => {
    expect(await both([])).toEqual([]);
    expect(await both([1001])).toEqual([1001]);
    expect(await both([4])).toEqual([]);
  });

  it('reads a run with gaps of two as a range, still only the ids asked for', async () => {
    // Every other id from 0 to 30: 5, 7 and 20 are stored; 6 is stored but not asked for.
    const ids = Array.from({ length: 16 }, (_, i) => 2 * i + 1);
    expect(await both(ids)).toEqual([5, 7]);
  });
});
