import type { Doc, PdbData } from '../../store/pdb-data.js';

/** Per request: the data and a memo, so a link asked for by many parents is read once. */
export class GraphContext {
  private readonly memo = new Map<string, Promise<unknown>>();
  constructor(readonly data: PdbData) {}

  once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      this.memo.set(key, p);
    }
    return p;
  }

  entry(id: string): Promise<Doc | undefined> {
    return this.once(`entry:${id}`, async () => (await this.data.entries([id])).get(id.toUpperCase()));
  }

  chemComp(id: string): Promise<Doc | undefined> {
    return this.once(`cc:${id}`, () => this.data.chemComp(id));
  }
}
