/**
 * What a load stores of a record of PubChem's own Compound files, read straight from the chunk's
 * bytes (as Latin-1 text) without parsing the rest: a full load reads about 120 million of them,
 * and building every record's tag map and property object cost more than the rest of the reading.
 * Only the layout PubChem writes is read here (`> <NAME>` lines, one-line values, a blank line after
 * each item, LF line ends); any other record gives undefined and is parsed whole (chem/sdf.ts), so
 * that both readings agree on every value this one returns. Property values are not built here:
 * the store reads them from the SD text when asked (chem/compound.ts `storedProps`).
 */
import { COMPUTED_TAG, REQUIRED_PROPS, keysOfTag, type FileColumns } from '../chem/compound.js';
import { SDF_TAGS, typed } from '../chem/properties.js';
import { SUBSKEYS_TAG, keyCount } from '../chem/subskeys-codec.js';
import { positiveInt } from './fields.js';

const CID = 0;
const COMPUTED = 1;
/** The tags read: the CID, this project's own mark, then PubChem's property tags (SDF_TAGS' order). */
const NAMES = ['PUBCHEM_COMPOUND_CID', COMPUTED_TAG, ...SDF_TAGS.map((t) => t.tag)];
const INDEX = new Map(NAMES.map((n, i) => [n, i] as const));
const SUBSKEYS = INDEX.get(SUBSKEYS_TAG) as number;

/** Each property's tags in the order that gives its value (the first with one wins, as in propsFromTags). */
const SOURCES = new Map<string, number[]>();
SDF_TAGS.forEach((t, i) => SOURCES.set(t.prop, [...(SOURCES.get(t.prop) ?? []), i + 2]));
const sourcesOf = (prop: string) => SOURCES.get(prop) ?? [];
const REQUIRED = REQUIRED_PROPS.map(sourcesOf);

const LF = 10;
const CR = 13;
const GT = 62;
const LT = 60;
const SPACE = 32;
const TAB = 9;
const DOLLAR = 36;

/** Whether the line at `at` is a value line that the whole-record parser reads as this one does. */
const plainLine = (s: string, at: number): boolean => {
  const c = s.charCodeAt(at);
  return c !== SPACE && c !== TAB && c !== DOLLAR && c !== GT && c !== LF && c !== CR;
};

/**
 * The values of the tags read (first value of a tag given twice) of the record at `[start, end)`
 * of `s`, or undefined when the record is laid out otherwise than PubChem writes.
 */
export function scanTags(s: string, start: number, end: number): (string | undefined)[] | undefined {
  // A molfile: three header lines, then its `M  END` line, within the record.
  const first = s.indexOf('\n', start);
  if (first < 0 || first >= end || s.charCodeAt(first - 1) === CR) return undefined;
  const mEnd = s.indexOf('\nM  END', start);
  if (mEnd < 0 || mEnd >= end) return undefined;
  const second = s.indexOf('\n', first + 1);
  const third = s.indexOf('\n', second + 1);
  if (third < 0 || third > mEnd) return undefined;
  const eol = s.indexOf('\n', mEnd + 1);
  if (eol < 0 || eol >= end) return undefined;
  const values: (string | undefined)[] = new Array<string | undefined>(NAMES.length).fill(undefined);
  let i = eol + 1;
  for (;;) {
    if (i >= end) return undefined;
    const c = s.charCodeAt(i);
    if (c === DOLLAR) return s.startsWith('$$$$', i) ? values : undefined;
    // More blank lines between items (older records end with several): the parser skips them too.
    if (c === LF) {
      i++;
      continue;
    }
    if (c !== GT || s.charCodeAt(i + 1) !== SPACE || s.charCodeAt(i + 2) !== LT) return undefined;
    // `> <NAME>` and nothing else on the line (a name the parser would trim is left to it).
    const close = s.indexOf('>\n', i + 3);
    if (close < 0 || close >= end) return undefined;
    const name = s.slice(i + 3, close);
    const k = INDEX.get(name);
    if (k === undefined && (name.includes('\n') || name.includes('>') || name.trim() !== name)) return undefined;
    let at = close + 2;
    if (s.charCodeAt(at) === LF) {
      // An empty value.
      if (k !== undefined && values[k] === undefined) values[k] = '';
      i = at + 1;
      continue;
    }
    if (!plainLine(s, at)) return undefined;
    const valueEnd = s.indexOf('\n', at);
    if (valueEnd < 0 || valueEnd >= end || s.charCodeAt(valueEnd - 1) === CR) return undefined;
    if (k !== undefined && values[k] === undefined) values[k] = s.slice(at, valueEnd);
    at = valueEnd + 1;
    // More value lines (coordinates, bond annotations): none of the tags read has them.
    while (s.charCodeAt(at) !== LF && !(s.charCodeAt(at) === DOLLAR && s.startsWith('$$$$', at))) {
      if (k !== undefined || !plainLine(s, at)) return undefined;
      const next = s.indexOf('\n', at);
      if (next < 0 || next >= end || s.charCodeAt(next - 1) === CR) return undefined;
      at = next + 1;
    }
    i = s.charCodeAt(at) === LF ? at + 1 : at;
  }
}

/** A property's value from the tags read: the first of its tags that gives one. */
function valueOf(values: readonly (string | undefined)[], sources: readonly number[]): string | number | undefined {
  for (const k of sources) {
    const raw = values[k];
    if (raw === undefined) continue;
    const v = typed((SDF_TAGS[k - 2] as (typeof SDF_TAGS)[number]).kind, raw);
    if (v !== undefined) return v;
  }
  return undefined;
}

const text = (v: string | number | undefined) => (v === undefined ? '' : String(v));
const number = (v: string | number | undefined) => {
  const n = Number(v);
  return v === undefined || !Number.isFinite(n) ? null : n;
};

/**
 * The stored columns of the record at `[start, end)` of `s` when it is one of PubChem's own
 * files (its CID, every value PubChem computes and its keys in its tags, no tag of this project's),
 * else undefined: then it is parsed whole, and RDKit completes it where it must.
 */
export function scanCompound(s: string, start: number, end: number): FileColumns | undefined {
  const values = scanTags(s, start, end);
  if (!values || values[COMPUTED] !== undefined) return undefined;
  const keysTag = values[SUBSKEYS];
  const cid = positiveInt(values[CID]);
  if (keysTag === undefined || cid === undefined) return undefined;
  for (const sources of REQUIRED) if (valueOf(values, sources) === undefined) return undefined;
  const k = keysOfTag(keysTag);
  return {
    cid,
    inchikey: text(valueOf(values, sourcesOf('InChIKey'))),
    formula: text(valueOf(values, sourcesOf('MolecularFormula'))),
    mw: number(valueOf(values, sourcesOf('MolecularWeight'))),
    exactMass: number(valueOf(values, sourcesOf('ExactMass'))),
    monoisotopicMass: number(valueOf(values, sourcesOf('MonoisotopicMass'))),
    smiles: text(valueOf(values, sourcesOf('SMILES'))),
    keys: k.keys ? Buffer.from(k.keys) : null,
    bits: k.keys ? keyCount(k.keys) : null,
    notes: k.note ? [k.note] : [],
  };
}
