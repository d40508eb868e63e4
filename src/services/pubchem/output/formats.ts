/** Output formats of PUG REST: names, content types, the Accept header, and CSV/TXT writers. */

export const OUTPUTS = ['XML', 'ASNT', 'ASNB', 'JSON', 'JSONP', 'SDF', 'CSV', 'PNG', 'TXT'] as const;
export type Output = (typeof OUTPUTS)[number];

export const CONTENT_TYPES: Record<Output, string> = {
  XML: 'application/xml',
  ASNT: 'text/plain',
  ASNB: 'application/ber-encoded',
  JSON: 'application/json',
  JSONP: 'application/javascript',
  SDF: 'chemical/x-mdl-sdfile',
  CSV: 'text/csv',
  PNG: 'image/png',
  TXT: 'text/plain',
};

export function outputOf(segment: string): Output | undefined {
  const up = segment.toUpperCase();
  return (OUTPUTS as readonly string[]).includes(up) ? (up as Output) : undefined;
}

const ACCEPT: [string, Output][] = [
  ['application/json', 'JSON'],
  ['application/xml', 'XML'],
  ['text/xml', 'XML'],
  ['application/javascript', 'JSONP'],
  ['application/ber-encoded', 'ASNB'],
  ['chemical/x-mdl-sdfile', 'SDF'],
  ['text/csv', 'CSV'],
  ['image/png', 'PNG'],
  ['text/plain', 'TXT'],
];

/** The output an Accept header asks for; XML (PubChem's default) when it names none of the table. */
export function outputFromAccept(accept: string | undefined): Output | 'unacceptable' {
  if (!accept) return 'XML';
  const types = accept.split(',').map((t) => t.split(';')[0]?.trim().toLowerCase() ?? '');
  for (const t of types) {
    const hit = ACCEPT.find(([mime]) => mime === t);
    if (hit) return hit[1];
  }
  return types.some((t) => t === '*/*' || t === 'application/*' || t === 'text/*' || t === '') ? 'XML' : 'unacceptable';
}

/** A CSV cell as PubChem writes it: strings quoted, numbers bare. */
function cell(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return String(v);
  return `"${String(v).replace(/"/g, '""')}"`;
}

export function csvTable(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header.map((h) => cell(h)).join(','), ...rows.map((r) => r.map(cell).join(','))].join('\n') + '\n';
}

export function txtLines(values: readonly unknown[]): string {
  return values.map((v) => String(v)).join('\n') + '\n';
}

/** JSONP's callback name: a JavaScript identifier path, nothing else. */
export function jsonpCallback(name: string | undefined): string | undefined {
  const n = name ?? 'callback';
  return /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(n) && n.length <= 100 ? n : undefined;
}
