/**
 * A BER reader for tests: octets into tag-length-value nodes (definite and indefinite lengths),
 * then, against an ASN.1 module, back into the typed value the encoder was given, so a test checks
 * that what was written reads back as the same tree.
 */
import { resolveType, type AsnModule, type AsnTypeRef, type AsnValue } from '../../src/core/asn1/value.js';

export interface Tlv {
  /** The identifier octet's class and form bits (0x30 SEQUENCE, 0xa0 context constructed, ...). */
  first: number;
  tag: number;
  children?: Tlv[];
  content?: Buffer;
}

function readOne(b: Buffer, at: number): { node: Tlv; next: number } {
  const id = b[at++] as number;
  let tag = id & 31;
  if (tag === 31) {
    tag = 0;
    let byte: number;
    do {
      byte = b[at++] as number;
      tag = tag * 128 + (byte & 0x7f);
    } while (byte & 0x80);
  }
  const first = id & 0xe0;
  const lenByte = b[at++];
  if (lenByte === undefined) throw new Error('BER ends early');
  const constructed = (id & 0x20) !== 0;
  if (lenByte === 0x80) {
    if (!constructed) throw new Error('indefinite length on a primitive');
    const children: Tlv[] = [];
    while (!(b[at] === 0 && b[at + 1] === 0)) {
      if (at >= b.length) throw new Error('BER ends before its end-of-contents');
      const r = readOne(b, at);
      children.push(r.node);
      at = r.next;
    }
    return { node: { first, tag, children }, next: at + 2 };
  }
  let len = lenByte;
  if (lenByte & 0x80) {
    len = 0;
    for (let i = 0; i < (lenByte & 0x7f); i++) len = len * 256 + (b[at++] as number);
  }
  const end = at + len;
  if (end > b.length) throw new Error('BER length past the end');
  if (!constructed) return { node: { first, tag, content: b.subarray(at, end) }, next: end };
  const children: Tlv[] = [];
  while (at < end) {
    const r = readOne(b, at);
    children.push(r.node);
    at = r.next;
  }
  return { node: { first, tag, children }, next: end };
}

/** Every top-level value in the octets. */
export function readTlvs(b: Buffer): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < b.length;) {
    const r = readOne(b, at);
    out.push(r.node);
    at = r.next;
  }
  return out;
}

function expect(n: Tlv, first: number, tag: number, what: string): void {
  if (n.first !== first || n.tag !== tag) throw new Error(`expected ${what}, got class ${n.first.toString(16)} tag ${n.tag}`);
}

function only(n: Tlv): Tlv {
  if (n.children?.length !== 1) throw new Error('an explicit tag must wrap one value');
  return n.children[0] as Tlv;
}

/** A two's-complement INTEGER. */
function integer(c: Buffer): number {
  if (!c.length) throw new Error('an INTEGER has at least one octet');
  return Number(BigInt.asIntN(c.length * 8, BigInt('0x' + c.toString('hex'))));
}

/** The typed value a BER node holds as an `ref` of the module. */
export function decodeAs(module: AsnModule, ref: AsnTypeRef, n: Tlv): AsnValue {
  const type = resolveType(module, ref);
  switch (type.kind) {
    case 'sequence': {
      expect(n, 0x20, 16, 'a SEQUENCE');
      return {
        t: 'sequence',
        members: (n.children ?? []).map((c) => {
          const m = type.members[c.tag];
          if (c.first !== 0xa0 || !m) throw new Error(`unknown member tag ${c.tag}`);
          return { name: m.name, tag: c.tag, value: decodeAs(module, m.type, only(c)) };
        }),
      };
    }
    case 'choice': {
      const alt = type.alternatives[n.tag];
      if (n.first !== 0xa0 || !alt) throw new Error(`unknown alternative tag ${n.tag}`);
      return { t: 'choice', name: alt.name, tag: n.tag, value: decodeAs(module, alt.type, only(n)) };
    }
    case 'sequenceOf':
      expect(n, 0x20, type.set ? 17 : 16, type.set ? 'a SET OF' : 'a SEQUENCE OF');
      return { t: 'list', set: !!type.set, items: (n.children ?? []).map((c) => decodeAs(module, type.of, c)) };
    case 'integer': {
      expect(n, 0, 2, 'an INTEGER');
      const value = integer(n.content as Buffer);
      const name = type.names?.[value];
      return name === undefined ? { t: 'integer', value } : { t: 'integer', value, name };
    }
    case 'real': {
      expect(n, 0, 9, 'a REAL');
      const c = n.content as Buffer;
      if (c[0] !== 0) throw new Error('only the decimal REAL form is read');
      return { t: 'real', value: Number(c.subarray(1).toString('latin1')) };
    }
    case 'string':
      expect(n, 0, 26, 'a VisibleString');
      return { t: 'string', value: (n.content as Buffer).toString('utf8') };
    case 'octets':
      expect(n, 0, 4, 'an OCTET STRING');
      return { t: 'octets', value: Buffer.from(n.content as Buffer) };
    case 'boolean':
      expect(n, 0, 1, 'a BOOLEAN');
      return { t: 'boolean', value: (n.content as Buffer)[0] !== 0 };
  }
}
