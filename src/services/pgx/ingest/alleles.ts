/**
 * Star alleles from CPIC's gene tables as PharmGKB distributes them, each sheet saved as text:
 * the allele functionality table (`Allele/cDNA/rsID`, `Activity Value`, `Allele Clinical
 * Functional Status`) and the allele frequency table (`Allele` and one column per biogeographic
 * group). The gene is named by the file (`CYP2D6_allele_functionality_reference.tsv`) or by the
 * title line above the header. Rows of one gene from several tables are merged by allele.
 */
import type { SkipPlace } from '../../../core/ingest/dataset.js';
import { record, type AlleleRow, type PgxRecord } from '../records.js';
import { has, splitList, type Header, type Row } from './text.js';

const ALLELE_COLUMNS = ['Allele/cDNA/rsID', 'Allele'];
const STATUS = ['Allele Clinical Functional Status (Required)', 'Allele Clinical Functional Status'];
const ACTIVITY = ['Activity Value (Optional)', 'Activity Value'];

export function isAlleleHeader(h: Header): boolean {
  const first = (h.names[0] ?? '').toLowerCase();
  return ALLELE_COLUMNS.some((c) => c.toLowerCase() === first) && h.names.length >= 2;
}

/** The gene a table is about: from its file name, else from its title line. */
export function alleleTableGene(baseName: string, title: string | undefined): string | undefined {
  const fromName = /^([A-Z0-9][A-Z0-9-]*)[_ ]/.exec(baseName)?.[1];
  if (fromName && /[A-Z]/.test(fromName)) return fromName;
  return /^([A-Z0-9][A-Z0-9-]*)\b/.exec(title ?? '')?.[1];
}

/** `1.0`, `0.25`, `≥3.0` (read as 3); anything else has no score. */
export function activityScore(cell: string): number | null {
  const m = /^[≥>]?\s*(\d+(?:\.\d+)?)$/.exec(cell.trim());
  return m ? Number(m[1]) : null;
}

/** Accumulates the allele tables of a load; `records` gives one merged record per gene and allele. */
export class AlleleTables {
  private readonly byKey = new Map<string, { row: AlleleRow; place: SkipPlace }>();

  add(gene: string, h: Header, r: Row, place: SkipPlace): string | undefined {
    const allele = r.get(...ALLELE_COLUMNS);
    if (!allele) return 'no allele name';
    const key = `${gene.toLowerCase()}\t${allele.toLowerCase()}`;
    let a = this.byKey.get(key)?.row;
    if (!a) {
      a = { gene, allele, function: '', activityScore: null, frequencies: {}, definingVariants: [], pharmVarId: '' };
      this.byKey.set(key, { row: a, place });
    }
    if (has(h, STATUS[1] as string) || has(h, STATUS[0] as string)) {
      const status = r.get(...STATUS);
      if (status) a.function = status.toLowerCase();
      const score = activityScore(r.get(...ACTIVITY));
      if (score !== null) a.activityScore = score;
      const pv = r.get('PharmVar ID');
      if (pv) a.pharmVarId = pv;
      const defining = splitList(r.get('Defining Variants'));
      if (defining.length) a.definingVariants = defining;
    } else {
      // A frequency table: every other column is a biogeographic group.
      for (const [name, cell] of r.matching((n) => !ALLELE_COLUMNS.some((c) => c.toLowerCase() === n))) {
        const v = Number(cell);
        if (cell !== '' && Number.isFinite(v)) a.frequencies[h.names[h.index.get(name) as number] as string] = v;
      }
    }
    return undefined;
  }

  /** Where each allele was first seen, to report it if it is refused. */
  *records(): Generator<{ rec: PgxRecord; place: SkipPlace }> {
    for (const [key, a] of this.byKey) yield { rec: record('allele', key, a.row), place: a.place };
  }
}
