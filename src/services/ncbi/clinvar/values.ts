/** Values derived from variant_summary cells: accessions, HGVS pieces, conditions, dates. */

export function vcvAccession(variationId: number): string {
  return `VCV${String(variationId).padStart(9, '0')}`;
}

const AA: Record<string, string> = {
  Ala: 'A',
  Arg: 'R',
  Asn: 'N',
  Asp: 'D',
  Cys: 'C',
  Gln: 'Q',
  Glu: 'E',
  Gly: 'G',
  His: 'H',
  Ile: 'I',
  Leu: 'L',
  Lys: 'K',
  Met: 'M',
  Phe: 'F',
  Pro: 'P',
  Ser: 'S',
  Thr: 'T',
  Trp: 'W',
  Tyr: 'Y',
  Val: 'V',
  Ter: '*',
  Sec: 'U',
  Pyl: 'O',
};

/** Pieces of a preferred name such as `NM_000410.4(HFE):c.845G>A (p.Cys282Tyr)`. */
export function hgvsParts(name: string): { transcript: string; gene: string; cdna: string; cdnaWithTranscript: string; protein: string; proteinShort: string } {
  const m = /^([A-Z]{2}_\d+(?:\.\d+)?)(?:\(([^)]+)\))?:(c\.[^\s]+)(?:\s+\((p\.[^)]+)\))?/.exec(name);
  if (!m) return { transcript: '', gene: '', cdna: '', cdnaWithTranscript: '', protein: '', proteinShort: '' };
  const protein = m[4] ?? '';
  // p.Cys282Tyr -> C282Y (single substitutions only, as the docsum's protein_change shows them).
  const sub = /^p\.([A-Z][a-z]{2})(\d+)([A-Z][a-z]{2})$/.exec(protein);
  const proteinShort = sub && AA[sub[1] as string] && AA[sub[3] as string] ? `${AA[sub[1] as string]}${sub[2]}${AA[sub[3] as string]}` : '';
  return { transcript: m[1] as string, gene: m[2] ?? '', cdna: m[3] as string, cdnaWithTranscript: `${m[1]}:${m[3]}`, protein, proteinShort };
}

/** Search terms of a clinical significance: the whole value and each classification in it. */
export function significanceTerms(value: string): string[] {
  if (!value) return [];
  const parts = value
    .split(';')
    .flatMap((p) => p.split('/'))
    .map((p) => p.trim())
    .filter(Boolean);
  return [value, ...parts];
}

/** Condition names of a PhenotypeList cell ("A|B;C"). */
export function splitConditions(list: string): string[] {
  return list
    .split(/[|;]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface Condition {
  name: string;
  xrefs: { db: string; id: string }[];
}

/**
 * Conditions with their cross-references: PhenotypeList and PhenotypeIDS run in parallel, "|"
 * between conditions of different records and ";" between traits of one set.
 */
export function conditions(phenotypeList: string, phenotypeIds: string): Condition[] {
  const names = phenotypeList.split('|');
  const ids = phenotypeIds.split('|');
  const out: Condition[] = [];
  names.forEach((group, i) => {
    const traitNames = group.split(';');
    const traitIds = (ids[i] ?? '').split(';');
    traitNames.forEach((n, j) => {
      const name = n.trim();
      if (!name || out.some((c) => c.name === name)) return;
      const xrefs = (traitIds[j] ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
        .map((x) => {
          const k = x.indexOf(':');
          return { db: x.slice(0, k), id: x.slice(k + 1) };
        })
        .filter((x) => x.db && x.id);
      out.push({ name, xrefs });
    });
  });
  return out;
}

const MONTHS: Record<string, string> = { Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06', Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12' };

/** variant_summary's "Jun 29, 2010" (or 2010-06-29) as a date, or '' when absent. */
export function isoDay(value: string): string {
  const m = /^([A-Z][a-z]{2}) (\d{1,2}), (\d{4})$/.exec(value.trim());
  if (m && MONTHS[m[1] as string]) return `${m[3]}-${MONTHS[m[1] as string]}-${(m[2] as string).padStart(2, '0')}`;
  return /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? value.trim() : '';
}

/** The docsum's date form, "2010/06/29 00:00". */
export function docsumDate(value: string): string {
  const d = isoDay(value);
  return d ? `${d.replace(/-/g, '/')} 00:00` : '';
}

/** SPDI of a single-nucleotide change from the VCF columns (0-based position). */
export function spdi(accession: string, positionVcf: string, ref: string, alt: string): string {
  if (!accession || !/^\d+$/.test(positionVcf) || !/^[ACGT]$/.test(ref) || !/^[ACGT]$/.test(alt)) return '';
  return `${accession}:${Number(positionVcf) - 1}:${ref}:${alt}`;
}
