/**
 * ASN.1 types and values as NCBI's toolkit uses them, enough to write records as value notation
 * ("text ASN.1") and BER ("binary ASN.1"). A value is typed: it is built from a record's JSON (NCBI's
 * JSON is a mechanical image of the ASN.1: member `heavy-atom` is `heavy_atom`, a CHOICE is an object
 * of one member, named INTEGERs are numbers, OCTET STRINGs hexadecimal) against a module of types.
 */

export type AsnType =
  | { kind: 'sequence'; members: AsnMember[] }
  | { kind: 'choice'; alternatives: AsnMember[] }
  | { kind: 'sequenceOf'; of: AsnTypeRef; set?: boolean }
  | { kind: 'integer'; names?: Readonly<Record<number, string>> }
  | { kind: 'real' }
  | { kind: 'string' }
  | { kind: 'octets' }
  | { kind: 'boolean' };

/** A type, or the name of one in the module. */
export type AsnTypeRef = AsnType | string;

/** A member of a SEQUENCE or an alternative of a CHOICE; its context tag is its position. */
export interface AsnMember {
  name: string;
  type: AsnTypeRef;
  optional?: boolean;
}

export type AsnModule = Readonly<Record<string, AsnType>>;

export type AsnValue =
  | { t: 'sequence'; members: { name: string; tag: number; value: AsnValue }[] }
  | { t: 'choice'; name: string; tag: number; value: AsnValue }
  | { t: 'list'; set: boolean; items: AsnValue[] }
  | { t: 'integer'; value: number; name?: string }
  | { t: 'real'; value: number }
  | { t: 'string'; value: string }
  | { t: 'octets'; value: Buffer }
  | { t: 'boolean'; value: boolean };

/** A value that does not fit its type (a record the module does not describe). */
export class AsnError extends Error {}

export function resolveType(module: AsnModule, ref: AsnTypeRef): AsnType {
  if (typeof ref !== 'string') return ref;
  const t = module[ref];
  if (!t) throw new AsnError(`no ASN.1 type ${ref}`);
  return t;
}

const jsonName = (asnName: string) => asnName.replace(/-/g, '_');

/** The typed value of `json` as an `ref`; members the type does not name are left out. */
export function fromJson(module: AsnModule, ref: AsnTypeRef, json: unknown, path = typeof ref === 'string' ? ref : 'value'): AsnValue {
  const type = resolveType(module, ref);
  const fail = (what: string) => new AsnError(`${path}: expected ${what}`);
  switch (type.kind) {
    case 'sequence': {
      if (json === null || typeof json !== 'object' || Array.isArray(json)) throw fail('an object');
      const obj = json as Record<string, unknown>;
      const members: { name: string; tag: number; value: AsnValue }[] = [];
      type.members.forEach((m, tag) => {
        const v = obj[jsonName(m.name)];
        if (v === undefined || v === null) {
          if (!m.optional) throw fail(`member ${m.name}`);
          return;
        }
        members.push({ name: m.name, tag, value: fromJson(module, m.type, v, `${path}.${m.name}`) });
      });
      return { t: 'sequence', members };
    }
    case 'choice': {
      if (json === null || typeof json !== 'object' || Array.isArray(json)) throw fail('an object of one member');
      const [key, v] = Object.entries(json as Record<string, unknown>)[0] ?? [];
      const tag = type.alternatives.findIndex((a) => jsonName(a.name) === key);
      const alt = type.alternatives[tag];
      if (!alt) throw fail(`one of ${type.alternatives.map((a) => a.name).join(', ')}`);
      return { t: 'choice', name: alt.name, tag, value: fromJson(module, alt.type, v, `${path}.${alt.name}`) };
    }
    case 'sequenceOf': {
      if (!Array.isArray(json)) throw fail('a list');
      return { t: 'list', set: !!type.set, items: json.map((item, i) => fromJson(module, type.of, item, `${path}[${i}]`)) };
    }
    case 'integer': {
      if (typeof json !== 'number' || !Number.isSafeInteger(json)) throw fail('an integer');
      const name = type.names?.[json];
      return name === undefined ? { t: 'integer', value: json } : { t: 'integer', value: json, name };
    }
    case 'real':
      if (typeof json !== 'number' || !Number.isFinite(json)) throw fail('a number');
      return { t: 'real', value: json };
    case 'string':
      if (typeof json !== 'string') throw fail('a string');
      return { t: 'string', value: json };
    case 'octets':
      if (typeof json !== 'string' || !/^(?:[0-9A-Fa-f]{2})*$/.test(json)) throw fail('hexadecimal');
      return { t: 'octets', value: Buffer.from(json, 'hex') };
    case 'boolean':
      if (typeof json !== 'boolean') throw fail('true or false');
      return { t: 'boolean', value: json };
  }
}
