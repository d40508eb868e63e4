/**
 * BER ("binary ASN.1") as NCBI's toolkit writes it: constructed values (SEQUENCE, SEQUENCE OF and
 * the context tags around members) with indefinite length, closed by two zero octets; each member
 * and CHOICE alternative in an explicit context tag numbered by its position; primitives with a
 * definite length; REALs in NCBI's decimal form (a zero octet, then the `%.15g` digits).
 */
import type { AsnValue } from './value.js';

const SEQUENCE = 0x30;
const SET = 0x31;
const CONTEXT = 0xa0;
const INTEGER = 0x02;
const REAL = 0x09;
const VISIBLE_STRING = 0x1a;
const OCTET_STRING = 0x04;
const BOOLEAN = 0x01;
const END = Buffer.from([0, 0]);

function identifier(first: number, tag: number): Buffer {
  if (tag < 31) return Buffer.from([first | tag]);
  const bytes: number[] = [];
  for (let t = tag; t > 0; t = Math.floor(t / 128)) bytes.unshift((t % 128) | (bytes.length ? 0x80 : 0));
  return Buffer.from([first | 31, ...bytes]);
}

function length(n: number): Buffer {
  if (n < 128) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let x = n; x > 0; x = Math.floor(x / 256)) bytes.unshift(x % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function primitive(tag: number, content: Buffer, out: Buffer[]): void {
  out.push(Buffer.from([tag]), length(content.length), content);
}

/** The shortest two's complement of an integer (safe integers, so at most 8 octets). */
export function integerOctets(n: number): Buffer {
  let big = BigInt(n);
  const bytes: number[] = [];
  for (;;) {
    const byte = Number(big & 0xffn);
    bytes.unshift(byte);
    big >>= 8n;
    if ((big === 0n && (byte & 0x80) === 0) || (big === -1n && (byte & 0x80) !== 0)) break;
  }
  return Buffer.from(bytes);
}

/** `%.15g`: 15 significant digits, trailing zeros dropped, exponent form below 1e-4 or from 1e15. */
export function realDigits(x: number): string {
  if (x === 0) return '0';
  const [mant = '', expText = '0'] = x.toExponential(14).split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 15) {
    const m = mant.replace(/\.?0+$/, '');
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return x.toFixed(Math.max(0, 14 - exp)).replace(/\.0+$|(\.\d*?)0+$/, '$1');
}

function encode(v: AsnValue, out: Buffer[]): void {
  switch (v.t) {
    case 'sequence':
      out.push(Buffer.from([SEQUENCE, 0x80]));
      for (const m of v.members) {
        out.push(identifier(CONTEXT, m.tag), Buffer.from([0x80]));
        encode(m.value, out);
        out.push(END);
      }
      out.push(END);
      return;
    case 'choice':
      out.push(identifier(CONTEXT, v.tag), Buffer.from([0x80]));
      encode(v.value, out);
      out.push(END);
      return;
    case 'list':
      out.push(Buffer.from([v.set ? SET : SEQUENCE, 0x80]));
      for (const item of v.items) encode(item, out);
      out.push(END);
      return;
    case 'integer':
      primitive(INTEGER, integerOctets(v.value), out);
      return;
    case 'real':
      primitive(REAL, Buffer.concat([Buffer.from([0]), Buffer.from(realDigits(v.value), 'latin1')]), out);
      return;
    case 'string':
      primitive(VISIBLE_STRING, Buffer.from(v.value, 'utf8'), out);
      return;
    case 'octets':
      primitive(OCTET_STRING, v.value, out);
      return;
    case 'boolean':
      primitive(BOOLEAN, Buffer.from([v.value ? 0xff : 0]), out);
      return;
  }
}

export function berEncode(v: AsnValue): Buffer {
  const out: Buffer[] = [];
  encode(v, out);
  return Buffer.concat(out);
}
