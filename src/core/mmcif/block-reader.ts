/**
 * An mmCIF data block read for its values: categories and items found by case-insensitive name,
 * absent values (`?`, `.`) left out, rows written out as typed JSON. The block is read by parse.ts
 * (Mol*'s CIF parser), so within its size limits.
 */
import type { CifBlock, CifCategory, CifField } from 'molstar/lib/mol-io/reader/cif.js';
import { firstBlock, parseCif } from './parse.js';
import { PRESENT } from './table.js';

/** How a value of an mmCIF item is written in JSON. */
export type FieldKind = 'integer' | 'number' | 'string' | 'date' | 'list';

export interface FieldPlan {
  /** The name as the JSON is to spell it (the key written). */
  name: string;
  kind: FieldKind;
}

/**
 * The key both spellings share: mmCIF item names are case-insensitive and use `-` and brackets
 * (`space_group_name_H-M`, `matrix[1][1]`) where JSON schemas write `_` (`matrix_1_1`).
 */
export function itemKey(name: string): string {
  return name.toLowerCase().replace(/-/g, '_').replace(/\[/g, '_').replace(/\]/g, '');
}

/** The first data block of an mmCIF file (text, or bytes plain or gzipped); throws CifFormatError. */
export async function readBlock(input: string | Uint8Array): Promise<Entry> {
  return new Entry(firstBlock(await parseCif(input)));
}

/** A category's rows, with values read by case-insensitive item name (mmCIF names are case-insensitive). */
export class Table {
  private readonly fields = new Map<string, CifField>();
  readonly rows: number;

  constructor(readonly category: CifCategory | undefined) {
    this.rows = category?.rowCount ?? 0;
    if (category)
      for (const f of category.fieldNames) {
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
    if (!f || row >= this.rows || f.valueKind(row) !== PRESENT) return undefined;
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

  /**
   * Every present item of a row that `plan` names (by `itemKey`), typed as it says; `rows` limits
   * which rows (all by default).
   */
  json(plan: { fields: ReadonlyMap<string, FieldPlan> }, rows?: readonly number[]): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    const wanted = rows ?? Array.from({ length: this.rows }, (_, i) => i);
    for (const r of wanted) {
      const obj: Record<string, unknown> = {};
      for (const [lower, field] of this.fields) {
        const p = plan.fields.get(lower);
        if (!p || field.valueKind(r) !== PRESENT) continue;
        const v = convert(field.str(r), p.kind);
        if (v !== undefined) obj[p.name] = v;
      }
      if (Object.keys(obj).length > 0) out.push(obj);
    }
    return out;
  }
}

/** mmCIF dates are days; JSON (the RCSB's Data API) writes them as instants at midnight UTC. */
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
      return v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    default:
      return v;
  }
}

/** One data block, its categories found by case-insensitive name. */
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
