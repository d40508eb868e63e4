import { CIF, type CifBlock, type CifCategory, type CifField } from 'molstar/lib/mol-io/reader/cif.js';
import { itemKey, type CategoryPlan, type FieldKind } from '../documents/schema.js';

/** An mmCIF file that could not be read (truncated, not CIF, no data block). */
export class CifReadError extends Error {
  override readonly name = 'CifReadError';
}

/** The first data block of an mmCIF text, read by Mol*'s CIF parser. */
export async function readBlock(text: string): Promise<Entry> {
  const parsed = await CIF.parseText(text).run();
  if (parsed.isError) throw new CifReadError(`not a readable mmCIF file: ${parsed.message}`);
  const block = parsed.result.blocks[0];
  if (!block) throw new CifReadError('the file has no data block');
  return new Entry(block);
}

/** A category's rows, with values read by case-insensitive item name (mmCIF names are case-insensitive). */
export class Table {
  private readonly fields = new Map<string, CifField>();
  readonly rows: number;

  constructor(readonly category: CifCategory | undefined) {
    this.rows = category?.rowCount ?? 0;
    if (category) for (const f of category.fieldNames) {
      const field = category.getField(f);
      if (field) this.fields.set(itemKey(f), field);
    }
  }

  /** Mol*'s own column, for loops over many rows (atom_site) where a lookup per value costs too much. */
  column(item: string): CifField | undefined {
    return this.fields.get(itemKey(item));
  }

  has(item: string): boolean {
    return this.fields.has(itemKey(item));
  }

  /** The value, or undefined where the file has `?` or `.` (absent values are omitted, never null). */
  str(item: string, row: number): string | undefined {
    const f = this.fields.get(itemKey(item));
    if (!f || row >= this.rows || f.valueKind(row) !== 0) return undefined;
    return f.str(row);
  }

  num(item: string, row: number): number | undefined {
    const v = this.str(item, row);
    if (v === undefined) return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }

  int(item: string, row: number): number | undefined {
    const n = this.num(item, row);
    return n === undefined ? undefined : Math.trunc(n);
  }

  /** Row numbers whose `item` equals `value`. */
  where(item: string, value: string): number[] {
    const out: number[] = [];
    for (let r = 0; r < this.rows; r++) if (this.str(item, r) === value) out.push(r);
    return out;
  }

  /** Every present item of a row, as the schema types it; `rows` limits which rows (all by default). */
  json(plan: CategoryPlan, rows?: readonly number[]): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    const wanted = rows ?? Array.from({ length: this.rows }, (_, i) => i);
    for (const r of wanted) {
      const obj: Record<string, unknown> = {};
      for (const [lower, field] of this.fields) {
        const p = plan.fields.get(lower);
        if (!p || field.valueKind(r) !== 0) continue;
        const v = convert(field.str(r), p.kind);
        if (v !== undefined) obj[p.name] = v;
      }
      if (Object.keys(obj).length > 0) out.push(obj);
    }
    return out;
  }
}

/** mmCIF dates are days; the Data API writes them as instants at midnight UTC. */
export function isoDate(v: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00+0000` : v;
}

function convert(v: string, kind: FieldKind): unknown {
  switch (kind) {
    case 'integer': {
      const n = Number(v);
      return Number.isFinite(n) ? Math.trunc(n) : undefined;
    }
    case 'number': {
      const n = Number(v);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'date':
      return isoDate(v);
    case 'list':
      return v.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    default:
      return v;
  }
}

/** One entry's data block, its categories found by case-insensitive name. */
export class Entry {
  private readonly tables = new Map<string, Table>();
  private readonly byLower = new Map<string, CifCategory>();

  constructor(readonly block: CifBlock) {
    for (const name of block.categoryNames) {
      const c = block.categories[name];
      if (c) this.byLower.set(name.toLowerCase(), c);
    }
  }

  get header(): string {
    return this.block.header;
  }

  has(category: string): boolean {
    return this.byLower.has(category.toLowerCase());
  }

  table(category: string): Table {
    const key = category.toLowerCase();
    let t = this.tables.get(key);
    if (!t) {
      t = new Table(this.byLower.get(key));
      this.tables.set(key, t);
    }
    return t;
  }

  categoryNames(): string[] {
    return [...this.byLower.keys()];
  }
}
