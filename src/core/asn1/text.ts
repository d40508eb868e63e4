/**
 * ASN.1 value notation as NCBI's toolkit writes it (`Type ::= value`): one member or item per line,
 * two spaces per level, named INTEGERs by name, REALs as `{ mantissa, 10, exponent }` with 15
 * significant digits, OCTET STRINGs as `'..'H`, quotes in strings doubled.
 */
import type { AsnValue } from './value.js';

const pad = (depth: number) => '  '.repeat(depth);

function braces(lines: string[], depth: number): string {
  if (!lines.length) return `{\n${pad(depth)}}`;
  return `{\n${lines.map((l) => pad(depth + 1) + l).join(',\n')}\n${pad(depth)}}`;
}

/** A REAL as `{ mantissa, 10, exponent }`, the digits of `%.14e` without trailing zeros. */
export function realText(x: number): string {
  if (x === 0) return '{ 0, 10, 0 }';
  const [mant = '', exp = '0'] = x.toExponential(14).split('e');
  const [whole = '', fraction = ''] = mant.split('.');
  const digits = fraction.replace(/0+$/, '');
  return `{ ${whole}${digits}, 10, ${Number(exp) - digits.length} }`;
}

function text(v: AsnValue, depth: number): string {
  switch (v.t) {
    case 'sequence':
      return braces(
        v.members.map((m) => `${m.name} ${text(m.value, depth + 1)}`),
        depth,
      );
    case 'choice':
      return `${v.name} ${text(v.value, depth)}`;
    case 'list':
      return braces(
        v.items.map((i) => text(i, depth + 1)),
        depth,
      );
    case 'integer':
      return v.name ?? String(v.value);
    case 'real':
      return realText(v.value);
    case 'string':
      return `"${v.value.replace(/"/g, '""')}"`;
    case 'octets':
      return `'${v.value.toString('hex').toUpperCase()}'H`;
    case 'boolean':
      return v.value ? 'TRUE' : 'FALSE';
  }
}

/** `Type ::= value` and a newline. */
export function asnText(type: string, value: AsnValue): string {
  return `${type} ::= ${text(value, 0)}\n`;
}
