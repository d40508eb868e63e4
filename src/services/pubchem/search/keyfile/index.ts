/**
 * PubChem's 881-bit substructure keys at PubChem's size: a file laid out by popcount (writer.ts,
 * format.ts) and a threaded scan for Tanimoto similarity and substructure screening (searcher.ts).
 */
export { BANDS, KEY_BITS, KEY_BYTES, KeyFileError, RAW_KEY_BYTES, type KeyFileHeader } from './format.js';
export { KeyFileWriter, writeKeyFile, type KeyFileStats } from './writer.js';
export { KeyFileSearcher, minCommon, type KeyHit, type KeySearcherOptions, type ScanOptions, type ScanStats } from './searcher.js';
