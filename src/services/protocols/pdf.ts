/**
 * A protocol as a PDF: title, authors, identifiers, abstract, materials and numbered steps, set in
 * the PDF standard fonts (so any reader shows it without embedded fonts).
 */
import PDFDocument from 'pdfkit';
import type { Doc } from './extract.js';
import { parseHtml, type Block } from './richtext.js';

// The standard fonts are encoded in WinAnsi; letters outside it are spelled out or approximated.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const SPELLED: Record<string, string> = {
  μ: 'µ',
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  Δ: 'Delta',
  κ: 'kappa',
  λ: 'lambda',
  σ: 'sigma',
  Ω: 'Ohm',
  ω: 'omega',
  '≤': '<=',
  '≥': '>=',
  '→': '->',
  '←': '<-',
  '−': '-',
  '‐': '-',
  '≈': '~',
  '∞': 'infinity',
};

export function winAnsi(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if ((c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff) || ch === '\n' || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (SPELLED[ch]) out += SPELLED[ch];
    else if (c === 0x2028 || c === 0x09) out += ' ';
    else {
      const base = ch.normalize('NFKD').replace(/\p{M}+/gu, '');
      out += /^[\x20-\x7e]+$/.test(base) ? base : '?';
    }
  }
  return out;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const isDoc = (v: unknown): v is Doc => v !== null && typeof v === 'object' && !Array.isArray(v);
const docs = (v: unknown): Doc[] => (Array.isArray(v) ? v.filter(isDoc) : []);

function duration(seconds: unknown): string {
  const n = Number(seconds);
  if (!Number.isFinite(n) || n <= 0) return str(seconds);
  const h = Math.floor(n / 3600);
  const m = Math.floor((n % 3600) / 60);
  const s = Math.round(n % 60);
  return [h ? `${h} h` : '', m ? `${m} min` : '', s ? `${s} s` : ''].filter(Boolean).join(' ');
}

const join = (...parts: unknown[]) =>
  parts
    .map(str)
    .filter((p) => p.trim())
    .join(' ');

/** What one step component says, as a label and text (HTML kept as blocks). */
function describe(c: Doc): { label?: string; text?: string; html?: string; mono?: boolean; heading?: boolean } | undefined {
  const s = isDoc(c.source) ? c.source : {};
  switch (Number(c.type_id)) {
    case 1:
      return { html: str(s.description) };
    case 3:
      return { label: 'Amount', text: join(s.amount, s.unit, s.title) };
    case 4:
      return { label: 'Duration', text: join(duration(s.duration), s.title) };
    case 6:
      return { text: str(s.title), heading: true };
    case 7:
      return { label: 'Link', text: str(s.link) };
    case 8:
      return { label: 'Software', text: join(s.name, s.developer ? `(${str(s.developer)})` : '', s.repository || s.link, s.os_name, s.os_version) };
    case 9:
      return { label: 'Dataset', text: join(s.name, s.link) };
    case 13:
      return { label: 'Comment', html: str(s.body) };
    case 15:
      return { label: join('Command', s.name), text: str(s.command), mono: true };
    case 17:
      return { label: 'Expected result', html: str(s.body) };
    case 19:
      return { label: 'Safety information', html: join(s.body, s.link) };
    case 20:
      return { label: 'Reagent', text: join(s.name, s.sku ? `(${str(s.sku)})` : '', isDoc(s.vendor) ? s.vendor.name : '') };
    case 21:
      return {
        label: 'Cases',
        text: docs(s.cases)
          .map((k) => join(k.label, k.title))
          .join('; '),
      };
    case 22:
      return { label: 'Go to a previous step', text: str(s.title) };
    case 24:
      return { label: 'Temperature', text: join(s.temperature, s.unit, s.title) };
    case 25:
      return { label: 'Concentration', text: join(s.concentration, s.unit, s.title) };
    case 26:
      return { label: 'Note', html: str(s.body) };
    default:
      return undefined;
  }
}

export function renderPdf(doc: Doc): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: 64, right: 64 },
    info: {
      Title: winAnsi(str(doc.title)),
      Author: winAnsi(
        docs(doc.authors)
          .map((a) => str(a.name))
          .join(', '),
      ),
      Subject: winAnsi(str(doc.uri)),
      Creator: 'biomirror',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const width = pdf.page.width - 128;
  const body = (t: string, opts: PDFKit.Mixins.TextOptions = {}) =>
    pdf
      .font('Helvetica')
      .fontSize(10.5)
      .fillColor('#000')
      .text(winAnsi(t), { width, ...opts });
  const heading = (t: string) => {
    pdf.moveDown(0.8);
    pdf.font('Helvetica-Bold').fontSize(13).fillColor('#000').text(winAnsi(t), { width });
    pdf.moveDown(0.3);
  };
  const blocks = (list: Block[], indent: number) => {
    let n = 0;
    for (const b of list) {
      const text = b.spans.map((s) => s.text).join('');
      n = b.type === 'ol' ? n + 1 : 0;
      const mark = b.type === 'ul' ? '•  ' : b.type === 'ol' ? `${n}.  ` : '';
      const font = b.type === 'heading' ? 'Helvetica-Bold' : b.type === 'code' ? 'Courier' : 'Helvetica';
      pdf
        .font(font)
        .fontSize(10.5)
        .text(winAnsi(mark + text), pdf.page.margins.left + indent + b.depth * 14, undefined, { width: width - indent - b.depth * 14 });
      pdf.moveDown(0.25);
    }
    pdf.x = pdf.page.margins.left;
  };

  pdf
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(winAnsi(str(doc.title)), { width });
  pdf.moveDown(0.4);
  const authors = docs(doc.authors).map((a) => join(a.name, a.affiliation ? `(${str(a.affiliation)})` : ''));
  if (authors.length)
    pdf
      .font('Helvetica')
      .fontSize(11)
      .fillColor('#333')
      .text(winAnsi(authors.join(', ')), { width });
  const doi = str(doc.doi);
  const published = Number(doc.published_on) > 0 ? new Date(Number(doc.published_on) * 1000).toISOString().slice(0, 10) : '';
  const ids = [doi ? `DOI: ${doi}` : '', `URI: ${str(doc.uri)}`, published ? `Published: ${published}` : 'Not published'].filter(Boolean);
  pdf
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#555')
    .text(winAnsi(ids.join('   ')), { width });
  pdf.fillColor('#000');

  const abstract = str(doc.description);
  if (abstract.trim()) {
    heading('Abstract');
    blocks(parseHtml(abstract), 0);
  }

  const materials = docs(doc.materials);
  if (materials.length) {
    heading('Materials');
    for (const m of materials) {
      const vendor = isDoc(m.vendor) ? str(m.vendor.name) : '';
      body(`•  ${join(m.name, m.sku ? `(${str(m.sku)})` : '', vendor ? `- ${vendor}` : '')}`);
      pdf.moveDown(0.2);
    }
  }

  const steps = docs(doc.steps);
  heading('Steps');
  if (steps.length === 0) body('This protocol has no steps.');
  steps.forEach((s, i) => {
    pdf
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(`${i + 1}.`, { width, continued: false });
    pdf.moveUp();
    const comps = docs(s.components)
      .map(describe)
      .filter((d) => d !== undefined);
    if (comps.length === 0) comps.push(typeof s.step === 'string' ? { html: s.step } : { text: '(no text)' });
    for (const d of comps) {
      const x = pdf.page.margins.left + 22;
      if (d.heading)
        pdf
          .font('Helvetica-Bold')
          .fontSize(10.5)
          .text(winAnsi(d.text ?? ''), x, undefined, { width: width - 22 });
      else if (d.html !== undefined) {
        if (d.label)
          pdf
            .font('Helvetica-Oblique')
            .fontSize(10)
            .text(winAnsi(`${d.label}:`), x, undefined, { width: width - 22 });
        blocks(parseHtml(d.html), 22);
      } else {
        pdf
          .font('Helvetica-Oblique')
          .fontSize(10)
          .text(winAnsi(d.label ? `${d.label}: ` : ''), x, undefined, { width: width - 22, continued: true });
        pdf
          .font(d.mono ? 'Courier' : 'Helvetica')
          .fontSize(10.5)
          .text(winAnsi(d.text ?? ''));
      }
      pdf.moveDown(0.2);
    }
    pdf.x = pdf.page.margins.left;
    pdf.moveDown(0.5);
  });
  pdf.end();
  return done;
}
