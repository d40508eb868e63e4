/**
 * P-values as the summary-statistics service handles them: split into a mantissa and a base-10
 * exponent (`2.826e-1`), because many are far below the smallest double (1e-400 is common in large
 * studies). Parsing works on the decimal digits, so `0.00005`, `5E-05` and `5e-5` are the same
 * value bit for bit, and a bound given by a client compares exactly with a stored value.
 */
export interface PValue {
  mantissa: number;
  exponent: number;
  /** log10(p): the order and filter key (finite even when p underflows a double). */
  plog: number;
}

/** log10 of a zero p-value: below every real one. */
export const ZERO_PLOG = -1e9;

const DECIMAL = /^\s*\+?(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d{1,6}))?\s*$/;

/** A p-value (0..1) written as a decimal or in e-notation; undefined when it is not one. */
export function parseP(text: string): PValue | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const intPart = m[1] ?? '';
  const frac = m[2] ?? '';
  if (intPart === '' && frac === '') return undefined;
  let digits = (intPart + frac).replace(/^0+/, '');
  if (digits === '') return { mantissa: 0, exponent: 0, plog: ZERO_PLOG };
  const exp10 = Number(m[3] ?? 0) - frac.length;
  const exponent = exp10 + digits.length - 1;
  digits = digits.replace(/0+$/, '');
  const mantissa = Number(digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits);
  const plog = Math.log10(mantissa) + exponent;
  if (plog > 0) return undefined;
  return { mantissa, exponent, plog };
}

/** From a `neg_log_10_p_value` column. */
export function fromNegLog10(text: string): PValue | undefined {
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x) || x < 0) return undefined;
  if (x === 0) return { mantissa: 1, exponent: 0, plog: 0 };
  const plog = -x;
  const exponent = Math.floor(plog);
  const mantissa = Number((10 ** (plog - exponent)).toPrecision(6));
  return mantissa >= 10 ? { mantissa: 1, exponent: exponent + 1, plog } : { mantissa, exponent, plog };
}

/** The service's text form: `2.826e-1`; zero is `0.0`. */
export function pText(mantissa: number, exponent: number): string {
  return mantissa === 0 ? '0.0' : `${mantissa}e${exponent}`;
}
