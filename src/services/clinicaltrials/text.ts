/**
 * Word normalisation shared by indexing and querying, on both databases: Unicode compatibility
 * decomposition, diacritics removed, lower case, split on anything that is not a letter or digit.
 * It mirrors SQLite FTS5's `unicode61 remove_diacritics 2` tokenizer, so both stores agree.
 */
export function normalizeWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** The text as a space-separated list of normalised words (what PostgreSQL's `simple` parser gets). */
export function normalizeText(text: string): string {
  return normalizeWords(text).join(' ');
}
