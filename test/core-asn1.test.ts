import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { berEncode, integerOctets, realDigits } from '../src/core/asn1/ber.js';
import { asnText, realText } from '../src/core/asn1/text.js';
import { AsnError, fromJson, type AsnModule } from '../src/core/asn1/value.js';
import { parseAsn } from './helpers/asn1.js';
import { decodeAs, readTlvs } from './helpers/ber.js';

// A small module in the style of NCBI's: a SEQUENCE with optional members, a CHOICE, lists and named INTEGERs.
const MODULE: AsnModule = {
  Item: {
    kind: 'sequence',
    members: [
      { name: 'id', type: { kind: 'integer' } },
      { name: 'label', type: { kind: 'string' }, optional: true },
      { name: 'shape', type: { kind: 'integer', names: { 1: 'round', 2: 'square-ish' } }, optional: true },
      {
        name: 'value',
        type: {
          kind: 'choice',
          alternatives: [
            { name: 'ival', type: { kind: 'integer' } },
            { name: 'fval', type: { kind: 'real' } },
            { name: 'binary', type: { kind: 'octets' } },
          ],
        },
        optional: true,
      },
      { name: 'xs', type: { kind: 'sequenceOf', of: { kind: 'real' } }, optional: true },
      { name: 'heavy-atom', type: { kind: 'integer' }, optional: true },
      { name: 'flag', type: { kind: 'boolean' }, optional: true },
    ],
  },
  Items: { kind: 'sequenceOf', of: 'Item' },
};

describe('ASN.1 values, value notation and BER', () => {
  it('writes the shortest two’s-complement INTEGER octets', () => {
    const hex = (n: number) => integerOctets(n).toString('hex');
    expect([0, 1, 127, 128, 255, 256, 1140, -1, -128, -129, 2 ** 40].map(hex)).toEqual(['00', '01', '7f', '0080', '00ff', '0100', '0474', 'ff', '80', 'ff7f', '010000000000']);
  });

  it('writes REALs as NCBI does: {mantissa, 10, exponent} in text, %.15g digits in BER', () => {
    expect([3.7321, 180.159, -0.5, 0, 2, 1e-7, 6.02214076e23].map(realText)).toEqual([
      '{ 37321, 10, -4 }',
      '{ 180159, 10, -3 }',
      '{ -5, 10, -1 }',
      '{ 0, 10, 0 }',
      '{ 2, 10, 0 }',
      '{ 1, 10, -7 }',
      '{ 602214076, 10, 15 }',
    ]);
    expect([2.866, 2, 1.4631, 0.0001234, 1e-7, 123456789012345680000, -3.5, 0.1 + 0.2].map(realDigits)).toEqual(['2.866', '2', '1.4631', '0.0001234', '1e-07', '1.23456789012346e+20', '-3.5', '0.3']);
  });

  it('encodes members in explicit context tags numbered by their place in the type, with indefinite lengths', () => {
    const v = fromJson(MODULE, 'Item', { id: 1140, shape: 2, value: { fval: 2.866 } });
    expect(berEncode(v).toString('hex')).toBe(
      // SEQUENCE { [0] INTEGER 1140, [2] INTEGER 2, [3] { [1] REAL "2.866" } }
      '3080' + 'a080' + '02020474' + '0000' + 'a280' + '020102' + '0000' + 'a380' + 'a180' + '0906' + '00' + Buffer.from('2.866').toString('hex') + '0000' + '0000' + '0000',
    );
    expect(asnText('Item', v)).toBe('Item ::= {\n  id 1140,\n  shape square-ish,\n  value fval { 2866, 10, -3 }\n}\n');
  });

  it('reads JSON member names with underscores for the hyphens of ASN.1 names, and leaves out members the type lacks', () => {
    const v = fromJson(MODULE, 'Item', { id: 1, heavy_atom: 13, unrelated: 'x', label: 'say "hi"', value: { binary: '00FF10' }, flag: true });
    expect(parseAsn(asnText('Item', v))[0]?.value).toEqual({ id: 1, label: 'say "hi"', value: { binary: "'00FF10'H" }, 'heavy-atom': 13, flag: '#TRUE' });
  });

  it('refuses values that do not fit the type, naming where', () => {
    expect(() => fromJson(MODULE, 'Item', { label: 'no id' })).toThrow(AsnError);
    expect(() => fromJson(MODULE, 'Item', { id: 1, value: { sval: 'x' } })).toThrow(/Item.value: expected one of ival, fval, binary/);
    expect(() => fromJson(MODULE, 'Item', { id: 1.5 })).toThrow(/Item.id: expected an integer/);
    expect(() => fromJson(MODULE, 'Item', { id: 1, value: { binary: 'xyz' } })).toThrow(/hexadecimal/);
    expect(() => fromJson(MODULE, 'Nothing', {})).toThrow(/no ASN.1 type Nothing/);
  });

  it('decodes its BER back to the same value, for any value of the module', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 });
    const item = fc.record(
      {
        id: fc.maxSafeInteger(),
        label: fc.string({ maxLength: 300 }),
        shape: fc.integer({ min: -300, max: 300 }),
        value: fc.oneof(fc.record({ ival: fc.integer() }), fc.record({ fval: finite }), fc.record({ binary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a).toString('hex')) })),
        xs: fc.array(finite, { maxLength: 20 }),
        heavy_atom: fc.nat(),
        flag: fc.boolean(),
      },
      { requiredKeys: ['id'] },
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 5 }), (items) => {
        const v = fromJson(MODULE, 'Items', items);
        const tlvs = readTlvs(berEncode(v));
        expect(tlvs).toHaveLength(1);
        const back = decodeAs(MODULE, 'Items', tlvs[0] as never);
        // %.15g keeps 15 significant digits: REALs come back to that precision.
        const round = (x: unknown): unknown => {
          if (Array.isArray(x)) return x.map(round);
          if (!x || typeof x !== 'object' || Buffer.isBuffer(x)) return x;
          const o = x as { t?: string; value?: unknown };
          if (o.t === 'real') return { t: 'real', value: Number((o.value as number).toPrecision(15)) };
          return Object.fromEntries(Object.entries(o).map(([k, y]) => [k, round(y)]));
        };
        expect(round(back)).toEqual(round(v));
      }),
      { numRuns: 200 },
    );
  });
});
