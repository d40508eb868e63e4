/**
 * Pathways from `pathways-tsv.zip`: one file per pathway named `<accession>-<Name_With_Underscores>.tsv`,
 * one row per reaction (From, To, Reaction Type, Controller, ..., Genes, Drugs, Diseases).
 */
import { record, type PgxRecord, type PathwayStep } from '../records.js';
import { has, splitList, type Header, type Row } from './text.js';

const FILE = /^(PA\d+)-(.+)\.(?:tsv|txt)$/i;

export function isPathwayHeader(h: Header): boolean {
  return has(h, 'From', 'To', 'Reaction Type');
}

/** The accession and name a pathway file's name carries, or undefined when it carries none. */
export function pathwayOfFile(baseName: string): { id: string; name: string } | undefined {
  const m = FILE.exec(baseName);
  if (!m) return undefined;
  return { id: m[1] as string, name: (m[2] as string).replace(/_/g, ' ').trim() };
}

/** Collects the rows of one pathway file into one record. */
export class PathwayBuilder {
  private readonly steps: PathwayStep[] = [];
  private readonly genes = new Set<string>();
  private readonly drugs = new Set<string>();

  constructor(private readonly file: { id: string; name: string }) {}

  add(r: Row): void {
    const from = r.get('From');
    const to = r.get('To');
    const reaction = r.get('Reaction Type');
    const genes = splitList(r.get('Genes'));
    for (const g of genes) this.genes.add(g);
    for (const d of splitList(r.get('Drugs'))) this.drugs.add(d);
    const what = from && to ? `${from} → ${to}` : from || to;
    this.steps.push({ step: this.steps.length + 1, process: reaction ? `${what} (${reaction})` : what, genes });
  }

  build(): PgxRecord {
    const sorted = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b, 'en'));
    return record('pathway', this.file.id, {
      id: this.file.id,
      name: this.file.name,
      description: '',
      genes: sorted(this.genes),
      drugs: sorted(this.drugs),
      steps: this.steps,
    });
  }
}
