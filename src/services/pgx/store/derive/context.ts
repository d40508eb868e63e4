/**
 * What every derivation step needs: the records of a load by kind, and how names found in one file
 * (a drug in an annotation, a gene in a label) resolve to the genes and chemicals of the load.
 */
import type { TableSet } from '../../../../core/ingest/dataset.js';
import type { Db, SqlValue } from '../../../../core/store/db.js';
import type { ChemicalRow, GeneRow, Kind, KindRows } from '../../records.js';
import type { Logical } from '../schema.js';
import { rawRows } from '../write.js';

export class LoadIndex {
  readonly genesByKey = new Map<string, GeneRow>();
  readonly chemicalsById = new Map<string, ChemicalRow>();
  /** Lower-cased names, generic names and trade names to chemical ids. */
  readonly chemicalIdsByName = new Map<string, string[]>();

  constructor(genes: GeneRow[], chemicals: ChemicalRow[]) {
    for (const g of genes) if (!this.genesByKey.has(g.symbol.toLowerCase())) this.genesByKey.set(g.symbol.toLowerCase(), g);
    for (const c of chemicals) {
      this.chemicalsById.set(c.id, c);
      for (const n of new Set([c.name, ...c.genericNames, ...c.tradeNames].map((x) => x.toLowerCase()))) {
        const ids = this.chemicalIdsByName.get(n) ?? [];
        ids.push(c.id);
        this.chemicalIdsByName.set(n, ids);
      }
    }
  }

  /** A gene symbol as the genes file spells it (files differ in case), or as given. */
  geneSymbol(symbol: string): string {
    return this.genesByKey.get(symbol.toLowerCase())?.symbol ?? symbol;
  }

  /** A drug named with its accession (guideline documents): the accession decides when it is loaded. */
  drugOf(id: string | undefined, name: string): string {
    return (id && this.chemicalsById.get(id)?.name) || this.drugName(name);
  }

  /** A drug by accession or name: its chemical's name when known (a main name wins over a synonym). */
  drugName(nameOrId: string): string {
    const byId = this.chemicalsById.get(nameOrId);
    if (byId) return byId.name;
    const ids = this.chemicalIdsByName.get(nameOrId.toLowerCase()) ?? [];
    const main = ids.map((id) => this.chemicalsById.get(id)).find((c) => c && c.name.toLowerCase() === nameOrId.toLowerCase());
    const c = main ?? (ids.length === 1 ? this.chemicalsById.get(ids[0] as string) : undefined);
    return c?.name ?? nameOrId;
  }
}

/** Records of a kind; read once per load. */
export function reader(db: Db, t: TableSet): <K extends Kind>(kind: K) => Promise<KindRows[K][]> {
  return (kind) => rawRows(db, t, kind);
}

/** Inserts derived rows in transactions of a few thousand. */
export async function put(db: Db, t: TableSet, table: Logical, columns: readonly string[], rows: SqlValue[][]): Promise<void> {
  for (let i = 0; i < rows.length; i += 2000) {
    const part = rows.slice(i, i + 2000);
    await db.transaction((tx) => tx.insertMany(t.name(table), columns, part));
  }
}

/** Rows written a few thousand at a time as they are made, so that a table's rows are never all held. */
export class Batch {
  private rows: SqlValue[][] = [];

  constructor(
    private readonly db: Db,
    private readonly t: TableSet,
    private readonly table: Logical,
    private readonly columns: readonly string[],
  ) {}

  async add(row: SqlValue[]): Promise<void> {
    this.rows.push(row);
    if (this.rows.length >= 2000) await this.flush();
  }

  async flush(): Promise<void> {
    const rows = this.rows;
    this.rows = [];
    await put(this.db, this.t, this.table, this.columns, rows);
  }
}

/**
 * Rows of `links`: each filter value of a resource, lower-cased, once. Each resource's values of a
 * kind come in one call, so a value is told apart from the others of that call only.
 */
export class Links {
  private readonly batch: Batch;

  constructor(db: Db, t: TableSet) {
    this.batch = new Batch(db, t, 'links', ['res', 'kind', 'key', 'id']);
  }

  async add(res: string, kind: string, keys: Iterable<string>, id: string): Promise<void> {
    const seen = new Set<string>();
    for (const k of keys) {
      const key = k.trim().toLowerCase();
      if (!key || seen.has(key)) continue;
      seen.add(key);
      await this.batch.add([res, kind, key, id]);
    }
  }

  flush(): Promise<void> {
    return this.batch.flush();
  }
}

/** `ord` values: each item's place once sorted. */
export function ranked<T>(items: T[], compare: (a: T, b: T) => number): { item: T; ord: number }[] {
  return [...items].sort(compare).map((item, ord) => ({ item, ord }));
}
