/**
 * How terms are normalised for the search index, the same at load and at query time: case and
 * accents folded, runs of spaces collapsed. Keyword fields keep a value whole (a gene symbol, a
 * clinical significance); text fields are split into words.
 */
export function normalize(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of a text value, for text fields (letters and digits; everything else separates). */
export function words(value: string): string[] {
  return normalize(value)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** A bulk-file cell: NCBI writes "-" for an empty value. */
export function cell(value: string | undefined): string {
  return value === undefined || value === '-' ? '' : value;
}

/** A "|"-separated bulk-file cell as a list, empty items dropped. */
export function cellList(value: string | undefined, sep: string | RegExp = '|'): string[] {
  const v = cell(value);
  return v
    ? v
        .split(sep)
        .map((s) => s.trim())
        .filter((s) => s.length > 0 && s !== '-')
    : [];
}

/** Text content: quotes stay as they are (E-utilities write `"Homo sapiens"[Organism]`). */
export function escapeXml(value: string): string {
  return value.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

export function escapeAttr(value: string): string {
  return escapeXml(value).replace(/"/g, '&quot;');
}
