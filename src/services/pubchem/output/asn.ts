/**
 * Full records (compounds, substances, assay descriptions) as NCBI's ASN.1 XML, from their JSON:
 * a member `f` of type `T` is `<T_f>`; a member of a named type `U` wraps `<U>`; lists of plain
 * values repeat `<T_f_E>`; enumerated values carry their name in `value="..."`. Types this table
 * does not know are written as inline types (`<T_f_g>`), which is how ASN.1 XML names them too.
 */
import { BOND_ANNOTATIONS, BOND_TYPES, COMPOUND_TYPES, COORD_TYPES, ELEMENT_NAMES, URN_DATATYPES } from './asn-schema.js';
import { escapeXml } from './xml.js';

interface Field {
  /** A named ASN.1 type. */
  type?: string;
  list?: boolean;
  /** Names of enumerated values. */
  values?: Record<number, string>;
  /** The enumerated type's own element name (for lists of enumerated values). */
  enumType?: string;
}

const TYPES: Record<string, Record<string, Field>> = {
  'PC-Compound': {
    id: { type: 'PC-CompoundType' },
    atoms: { type: 'PC-Atoms' },
    bonds: { type: 'PC-Bonds' },
    coords: { type: 'PC-Coordinates', list: true },
    props: { type: 'PC-InfoData', list: true },
    count: { type: 'PC-Count' },
  },
  'PC-CompoundType': { type: { values: COMPOUND_TYPES } },
  'PC-Atoms': { aid: { list: true }, element: { list: true, values: ELEMENT_NAMES, enumType: 'PC-Element' }, charge: { type: 'PC-AtomInt', list: true } },
  'PC-AtomInt': {},
  'PC-Bonds': { aid1: { list: true }, aid2: { list: true }, order: { list: true, values: BOND_TYPES, enumType: 'PC-BondType' } },
  'PC-Coordinates': {
    type: { list: true, values: COORD_TYPES, enumType: 'PC-CoordinateType' },
    aid: { list: true },
    conformers: { type: 'PC-Conformer', list: true },
    data: { type: 'PC-InfoData', list: true },
  },
  'PC-Conformer': { x: { list: true }, y: { list: true }, z: { list: true }, style: { type: 'PC-DrawAnnotations' }, data: { type: 'PC-InfoData', list: true } },
  'PC-DrawAnnotations': { annotation: { list: true, values: BOND_ANNOTATIONS, enumType: 'PC-BondAnnotation' }, aid1: { list: true }, aid2: { list: true } },
  'PC-InfoData': { urn: { type: 'PC-Urn' } },
  'PC-Urn': { datatype: { type: 'PC-UrnDataType', values: URN_DATATYPES } },
  'PC-Count': {},
  'PC-Substance': { sid: { type: 'PC-ID' }, source: { type: 'PC-Source' }, synonyms: { list: true }, compound: { type: 'PC-Compounds' }, xref: { type: 'PC-XRefData', list: true } },
  'PC-Compounds': {},
  'PC-Source': { db: { type: 'PC-DBTracking' } },
  'PC-DBTracking': { source_id: { type: 'Object-id' } },
  'PC-AssaySubmit': {},
  'PC-AssayDescription': {
    aid: { type: 'PC-ID' },
    aid_source: { type: 'PC-Source' },
    description: { list: true },
    protocol: { list: true },
    comment: { list: true },
    xref: { type: 'PC-AnnotatedXRef', list: true },
    results: { type: 'PC-ResultType', list: true },
    target: { type: 'PC-AssayTargetInfo', list: true },
    activity_outcome_method: { values: { 1: 'screening', 2: 'confirmatory', 3: 'summary', 255: 'other' } },
  },
  'PC-AnnotatedXRef': { xref: { type: 'PC-XRefData' } },
  'PC-ResultType': { type: { values: { 1: 'float', 2: 'int', 3: 'bool', 4: 'string' } } },
};

/** Choice alternatives holding a named type, by inline element name. */
const NAMED_ALTERNATIVES: Record<string, string> = { 'PC-AssaySubmit_assay_descr': 'PC-AssayDescription' };

const asnName = (key: string) => key.replace(/_/g, '-');

function scalar(v: unknown): string {
  return escapeXml(typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v));
}

function enumerated(tag: string, v: unknown, values: Record<number, string> | undefined, indent: string, out: string[]): void {
  const name = values?.[Number(v)];
  out.push(name ? `${indent}<${tag} value="${name}">${scalar(v)}</${tag}>\n` : `${indent}<${tag}>${scalar(v)}</${tag}>\n`);
}

/** The members of an object of ASN.1 type (or inline type) `type`. */
function members(type: string, obj: Record<string, unknown>, indent: string, out: string[]): void {
  const fields = TYPES[type] ?? {};
  for (const [key, value] of Object.entries(obj)) {
    if (value === undefined || value === null) continue;
    const tag = `${type}_${asnName(key)}`;
    const f = fields[key] ?? {};
    if (f.list || Array.isArray(value)) {
      const list = Array.isArray(value) ? value : [value];
      out.push(`${indent}<${tag}>\n`);
      for (const item of list) {
        if (f.values && f.enumType) enumerated(f.enumType, item, f.values, indent + '  ', out);
        else if (f.type) named(f.type, item, indent + '  ', out);
        else if (item !== null && typeof item === 'object') {
          out.push(`${indent}  <${tag}_E>\n`);
          members(`${tag}_E`, item as Record<string, unknown>, indent + '    ', out);
          out.push(`${indent}  </${tag}_E>\n`);
        } else out.push(`${indent}  <${tag}_E>${scalar(item)}</${tag}_E>\n`);
      }
      out.push(`${indent}</${tag}>\n`);
    } else if (f.type && typeof value === 'object') {
      out.push(`${indent}<${tag}>\n`);
      named(f.type, value, indent + '  ', out);
      out.push(`${indent}</${tag}>\n`);
    } else if (f.type && f.values) {
      out.push(`${indent}<${tag}>\n`);
      enumerated(f.type, value, f.values, indent + '  ', out);
      out.push(`${indent}</${tag}>\n`);
    } else if (f.values) {
      enumerated(tag, value, f.values, indent, out);
    } else if (typeof value === 'object') {
      out.push(`${indent}<${tag}>\n`);
      const inner = NAMED_ALTERNATIVES[tag];
      if (inner) named(inner, value, indent + '  ', out);
      else members(tag, value as Record<string, unknown>, indent + '  ', out);
      out.push(`${indent}</${tag}>\n`);
    } else {
      out.push(`${indent}<${tag}>${scalar(value)}</${tag}>\n`);
    }
  }
}

function named(type: string, value: unknown, indent: string, out: string[]): void {
  if (type === 'PC-Compounds' && Array.isArray(value)) {
    out.push(`${indent}<PC-Compounds>\n`);
    for (const c of value) named('PC-Compound', c, indent + '  ', out);
    out.push(`${indent}</PC-Compounds>\n`);
    return;
  }
  if (value === null || typeof value !== 'object') {
    out.push(`${indent}<${type}>${scalar(value)}</${type}>\n`);
    return;
  }
  out.push(`${indent}<${type}>\n`);
  members(type, value as Record<string, unknown>, indent + '  ', out);
  out.push(`${indent}</${type}>\n`);
}

/** `records` of `itemType` in the container element `root` (e.g. PC-Compounds of PC-Compound). */
export function asnXml(root: string, itemType: string, records: readonly unknown[]): string {
  const out: string[] = [
    `<?xml version="1.0"?>\n<${root}\n    xmlns="http://www.ncbi.nlm.nih.gov"\n    xmlns:xs="http://www.w3.org/2001/XMLSchema-instance"\n    xs:schemaLocation="http://www.ncbi.nlm.nih.gov ftp://ftp.ncbi.nlm.nih.gov/pubchem/specifications/pubchem.xsd"\n>\n`,
  ];
  for (const r of records) named(itemType, r, '  ', out);
  out.push(`</${root}>\n`);
  return out.join('');
}
