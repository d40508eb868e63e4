/** The spec's enumerations, and the real service's names where they differ. */

export const CPIC_LEVELS = ['A', 'B', 'C', 'D'] as const;
export const EVIDENCE_LEVELS = ['1A', '1B', '2A', '2B', '3', '4'] as const;
/** The spec's guideline sources, then the other bodies PharmGKB annotates guidelines of. */
export const GUIDELINE_SOURCES = ['CPIC', 'DPWG', 'FDA', 'CPNDS', 'RNPGx'] as const;
/** The spec's label sources, then PharmGKB's own names (HCSC is Health Canada) and Swissmedic. */
export const LABEL_SOURCES = ['FDA', 'EMA', 'PMDA', 'Health Canada', 'HCSC', 'Swissmedic'] as const;
export const CHROMOSOMES = [...Array.from({ length: 22 }, (_, i) => String(i + 1)), 'X', 'Y'] as const;

/** Label sources as the spec names them. */
export function labelSource(source: string): string {
  return /^(hcsc|health canada)$/i.test(source) ? 'Health Canada' : source;
}

/** Order of evidence levels, best first; levels outside the scale go last. */
export function levelRank(level: string): number {
  const i = (EVIDENCE_LEVELS as readonly string[]).indexOf(level);
  return i < 0 ? EVIDENCE_LEVELS.length : i;
}

export function chromosomeRank(chromosome: string): number {
  const i = (CHROMOSOMES as readonly string[]).indexOf(chromosome);
  return i < 0 ? CHROMOSOMES.length : i;
}

/** Sources in a stable order: guideline bodies, then label bodies, then any other. */
const SOURCE_ORDER = ['CPIC', 'DPWG', 'CPNDS', 'RNPGx', 'FDA', 'EMA', 'PMDA', 'Health Canada', 'Swissmedic'];
export function sortSources(sources: Iterable<string>): string[] {
  const rank = (s: string) => {
    const i = SOURCE_ORDER.indexOf(s);
    return i < 0 ? SOURCE_ORDER.length : i;
  };
  return [...new Set(sources)].sort((a, b) => rank(a) - rank(b) || compareText(a, b));
}

/** Case-insensitive, then code-point order: the same on every machine and database. */
export function compareText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/** Natural order for allele names: `*2` before `*10`, `*1x2` after `*1`. */
export function naturalKey(name: string): string {
  return name.toLowerCase().replace(/\d+/g, (d) => d.padStart(8, '0'));
}
