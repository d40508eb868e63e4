/**
 * The spec's 27 subject categories. Records carry them in lower case with spaces ("cell biology");
 * the spec writes them with hyphens and the upstream's `?category=` takes underscores or spaces, so
 * every form is folded to the records' one before comparing.
 */
export const CATEGORIES = [
  'animal-behavior-and-cognition',
  'biochemistry',
  'bioengineering',
  'bioinformatics',
  'biophysics',
  'cancer-biology',
  'cell-biology',
  'clinical-trials',
  'developmental-biology',
  'ecology',
  'epidemiology',
  'evolutionary-biology',
  'genetics',
  'genomics',
  'immunology',
  'microbiology',
  'molecular-biology',
  'neuroscience',
  'paleontology',
  'pathology',
  'pharmacology-and-toxicology',
  'physiology',
  'plant-biology',
  'scientific-communication-and-education',
  'synthetic-biology',
  'systems-biology',
  'zoology',
] as const;

/** `Cell_Biology`, `cell-biology`, `cell%20biology` (decoded) -> `cell biology`. */
export function categoryKey(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s_+-]+/g, ' ');
}

const VALID = new Set(CATEGORIES.map(categoryKey));

/** The category as records carry it, or undefined when it is not one of the 27. */
export function knownCategory(value: string): string | undefined {
  const key = categoryKey(value);
  return VALID.has(key) ? key : undefined;
}
