/**
 * Rich text of protocols. Documents hold HTML (as the upstream's objects do); `content_format`
 * asks for it as HTML, Markdown or Draft.js raw JSON (the editor format the upstream's JSON uses).
 * A small reader turns the HTML subset protocols use into blocks of styled spans; each output
 * format is written from those blocks.
 */

export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  code?: boolean;
  sup?: boolean;
  sub?: boolean;
  href?: string;
}

export type BlockType = 'paragraph' | 'heading' | 'ul' | 'ol' | 'code';

export interface Block {
  type: BlockType;
  /** Heading level 1..6. */
  level: number;
  /** Nesting of list items, from 0. */
  depth: number;
  spans: Span[];
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  micro: '\u00b5',
  deg: '\u00b0',
  plusmn: '\u00b1',
  times: '\u00d7',
  divide: '\u00f7',
  mu: '\u03bc',
  alpha: '\u03b1',
  beta: '\u03b2',
  gamma: '\u03b3',
  delta: '\u03b4',
  Delta: '\u0394',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  le: '\u2264',
  ge: '\u2265',
  rarr: '\u2192',
  larr: '\u2190',
  middot: '\u00b7',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  minus: '\u2212',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[e] ?? all;
  });
}

const BLOCK_TAGS = new Set(['p', 'div', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'tr', 'section', 'article']);
const SKIP_TAGS = new Set(['script', 'style', 'head', 'title']);
const INLINE: Record<string, keyof Span> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  code: 'code',
  sup: 'sup',
  sub: 'sub',
};

const TOKEN = /<!--[\s\S]*?-->|<\/?([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+|</g;

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attrs);
  return m ? decodeEntities(m[2] ?? m[3] ?? m[4] ?? '') : undefined;
}

/** Only web and mail links are kept: a `javascript:` link must not reach a reader. */
function safeHref(href: string | undefined): string | undefined {
  return href && /^(https?:|mailto:)/i.test(href.trim()) ? href.trim() : undefined;
}

/** Plain text without tags: blank lines separate paragraphs. */
function plainBlocks(text: string): Block[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 0)
    .map((p) => ({ type: 'paragraph' as const, level: 0, depth: 0, spans: [{ text: p }] }));
}

export function parseHtml(html: string): Block[] {
  if (!html.includes('<')) return plainBlocks(decodeEntities(html));
  const blocks: Block[] = [];
  const style: Span[] = [{ text: '' }];
  const lists: ('ul' | 'ol')[] = [];
  let skip = 0;
  let pre = 0;
  let heading = 0;
  let items = 0;
  let current: Block | undefined;
  const listType = (): BlockType => lists[lists.length - 1] ?? 'ul';
  // The kind of block text opens here: a <p> inside a list item is still the item.
  const kind = (): BlockType => (pre ? 'code' : heading ? 'heading' : items && lists.length ? listType() : 'paragraph');

  const close = () => {
    if (!current) return;
    const spans = current.spans;
    if (current.type !== 'code') {
      // Whitespace was collapsed per span; trim the block's ends.
      while (spans.length && !spans[0]?.text.trim()) spans.shift();
      while (spans.length && !spans[spans.length - 1]?.text.trim()) spans.pop();
      const first = spans[0];
      const last = spans[spans.length - 1];
      if (first) first.text = first.text.replace(/^\s+/, '');
      if (last) last.text = last.text.replace(/\s+$/, '');
    }
    if (spans.some((s) => s.text.length > 0)) blocks.push(current);
    current = undefined;
  };
  const open = (type: BlockType) => {
    close();
    current = { type, level: heading, depth: Math.max(0, lists.length - 1), spans: [] };
  };
  const addText = (raw: string) => {
    let text = decodeEntities(raw);
    // White space collapses to one space; U+2028 (from <br>) is kept as a line break.
    if (!pre) text = text.replace(/[^\S\u2028]+/g, ' ');
    if (!current) {
      if (!text.trim()) return;
      open(kind());
    }
    const block = current as Block;
    const prev = block.spans[block.spans.length - 1];
    if (!pre && (!prev || prev.text.endsWith(' ') || prev.text.endsWith('\n'))) text = text.replace(/^ /, '');
    if (!text) return;
    const top = style[style.length - 1] as Span;
    block.spans.push({ ...top, text });
  };

  for (const m of html.matchAll(TOKEN)) {
    const [all, rawName, attrs = ''] = m;
    if (all.startsWith('<!--')) continue;
    if (!rawName) {
      if (!skip) addText(all);
      continue;
    }
    const name = rawName.toLowerCase();
    const closing = all.startsWith('</');
    if (SKIP_TAGS.has(name)) {
      skip += closing ? -1 : all.endsWith('/>') ? 0 : 1;
      skip = Math.max(0, skip);
      continue;
    }
    if (skip) continue;
    if (name === 'br') {
      if (current) addText(pre ? '\n' : '\u2028');
      continue;
    }
    if (name === 'ul' || name === 'ol') {
      close();
      if (closing) lists.pop();
      else lists.push(name);
      continue;
    }
    if (/^h[1-6]$/.test(name)) heading = closing ? 0 : Number(name[1]);
    if (name === 'pre') pre = Math.max(0, pre + (closing ? -1 : 1));
    if (name === 'li') items = Math.max(0, items + (closing ? -1 : 1));
    if (BLOCK_TAGS.has(name)) {
      if (closing) close();
      else open(kind());
      continue;
    }
    if (name === 'td' || name === 'th') {
      if (!closing && current) addText(' ');
      continue;
    }
    const flag = INLINE[name];
    if (flag || name === 'a') {
      if (closing) {
        if (style.length > 1) style.pop();
      } else {
        const top = { ...(style[style.length - 1] as Span) };
        if (flag) (top as unknown as Record<string, unknown>)[flag] = true;
        else {
          const href = safeHref(attr(attrs, 'href'));
          if (href) top.href = href;
        }
        style.push(top);
      }
    }
  }
  close();
  // Line breaks inside a block became U+2028 so that whitespace collapsing kept them; make them newlines.
  for (const b of blocks) for (const s of b.spans) s.text = s.text.replace(/ ?\u2028 ?/g, '\n');
  return blocks;
}

function blockText(b: Block): string {
  return b.spans.map((s) => s.text).join('');
}

/** Text without markup, blocks on lines of their own. */
export function plainText(html: string): string {
  return parseHtml(html).map(blockText).join('\n');
}

function escapeMd(s: string): string {
  return s.replace(/([\\`*_[\]<>])/g, '\\$1');
}

function spanMd(s: Span): string {
  let t = s.code ? `\`${s.text.replace(/`/g, '')}\`` : escapeMd(s.text);
  const lead = /^\s*/.exec(t)?.[0] ?? '';
  const trail = /\s*$/.exec(t)?.[0] ?? '';
  let core = t.slice(lead.length, t.length - trail.length);
  if (!core) return t;
  if (s.sup) core = `<sup>${core}</sup>`;
  if (s.sub) core = `<sub>${core}</sub>`;
  if (s.italic) core = `*${core}*`;
  if (s.bold) core = `**${core}**`;
  if (s.href) core = `[${core}](${s.href.replace(/[()\s]/g, encodeURIComponent)})`;
  t = lead + core + trail;
  return t;
}

export function toMarkdown(html: string): string {
  const out: string[] = [];
  let number = 0;
  let prev: Block | undefined;
  for (const b of parseHtml(html)) {
    const inList = b.type === 'ul' || b.type === 'ol';
    if (prev && !(inList && (prev.type === 'ul' || prev.type === 'ol'))) out.push('');
    number = b.type === 'ol' ? (prev?.type === 'ol' && prev.depth === b.depth ? number + 1 : 1) : number;
    const text = b.spans.map(spanMd).join('').replace(/\n/g, '  \n');
    if (b.type === 'heading') out.push(`${'#'.repeat(b.level || 1)} ${text}`);
    else if (b.type === 'ul') out.push(`${'  '.repeat(b.depth)}- ${text}`);
    else if (b.type === 'ol') out.push(`${'   '.repeat(b.depth)}${number}. ${text}`);
    else if (b.type === 'code') out.push('```', blockText(b), '```');
    else out.push(text);
    prev = b;
  }
  return out.join('\n');
}

const DRAFT_TYPE: Record<BlockType, string> = {
  paragraph: 'unstyled',
  heading: 'header-one',
  ul: 'unordered-list-item',
  ol: 'ordered-list-item',
  code: 'code-block',
};
const HEADERS = ['one', 'two', 'three', 'four', 'five', 'six'];
const DRAFT_STYLES: [keyof Span, string][] = [
  ['bold', 'BOLD'],
  ['italic', 'ITALIC'],
  ['underline', 'UNDERLINE'],
  ['code', 'CODE'],
  ['sup', 'SUPERSCRIPT'],
  ['sub', 'SUBSCRIPT'],
];

/** A stable five-character block key, as Draft.js uses, derived from the block's place. */
function blockKey(i: number): string {
  return (((i + 1) * 2654435761) % 60466176).toString(36).padStart(5, '0').slice(-5);
}

/** Draft.js raw content (blocks and entity map), as a JSON string. */
export function toDraftJson(html: string): string {
  const entityMap: Record<string, { type: 'LINK'; mutability: 'MUTABLE'; data: { url: string } }> = {};
  let entities = 0;
  const blocks = parseHtml(html).map((b, i) => {
    const styles: { offset: number; length: number; style: string }[] = [];
    const links: { offset: number; length: number; key: number }[] = [];
    let offset = 0;
    let text = '';
    for (const s of b.spans) {
      const length = s.text.length;
      for (const [flag, style] of DRAFT_STYLES) {
        if (!s[flag] || !length) continue;
        const last = styles.filter((r) => r.style === style).pop();
        if (last && last.offset + last.length === offset) last.length += length;
        else styles.push({ offset, length, style });
      }
      if (s.href && length) {
        const last = links[links.length - 1];
        if (last && last.offset + last.length === offset && entityMap[last.key]?.data.url === s.href) last.length += length;
        else {
          entityMap[entities] = { type: 'LINK', mutability: 'MUTABLE', data: { url: s.href } };
          links.push({ offset, length, key: entities++ });
        }
      }
      text += s.text;
      offset += length;
    }
    const type = b.type === 'heading' ? `header-${HEADERS[(b.level || 1) - 1]}` : DRAFT_TYPE[b.type];
    return { key: blockKey(i), text, type, depth: b.depth, inlineStyleRanges: styles, entityRanges: links, data: {} };
  });
  return JSON.stringify({ blocks, entityMap });
}

const DRAFT_TAGS: Record<string, [string, string]> = {
  BOLD: ['<b>', '</b>'],
  ITALIC: ['<i>', '</i>'],
  UNDERLINE: ['<u>', '</u>'],
  CODE: ['<code>', '</code>'],
  SUPERSCRIPT: ['<sup>', '</sup>'],
  SUBSCRIPT: ['<sub>', '</sub>'],
};
const BLOCK_HTML: Record<string, string> = {
  'header-one': 'h1',
  'header-two': 'h2',
  'header-three': 'h3',
  'header-four': 'h4',
  'header-five': 'h5',
  'header-six': 'h6',
  'code-block': 'pre',
  blockquote: 'blockquote',
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

interface DraftRange {
  offset?: unknown;
  length?: unknown;
  style?: unknown;
  key?: unknown;
}

/**
 * Draft.js raw content (what the current upstream API sends by default) as HTML, or undefined when
 * the text is not Draft.js JSON. Loaded protocols are kept as HTML, so every format can be served.
 */
export function draftToHtml(text: string): string | undefined {
  if (!text.trimStart().startsWith('{') || !text.includes('"blocks"')) return undefined;
  let raw: { blocks?: unknown; entityMap?: Record<string, { type?: string; data?: { url?: unknown; href?: unknown } }> };
  try {
    raw = JSON.parse(text) as typeof raw;
  } catch {
    return undefined;
  }
  if (!raw || !Array.isArray(raw.blocks)) return undefined;
  const entities = raw.entityMap ?? {};
  const out: string[] = [];
  let list: string | undefined;
  for (const b of raw.blocks as { text?: unknown; type?: unknown; inlineStyleRanges?: DraftRange[]; entityRanges?: DraftRange[] }[]) {
    const t = typeof b?.text === 'string' ? b.text : '';
    const styles = Array.from({ length: t.length }, () => new Set<string>());
    const links: (string | undefined)[] = new Array(t.length).fill(undefined);
    const each = (ranges: DraftRange[] | undefined, f: (i: number, r: DraftRange) => void) => {
      for (const r of Array.isArray(ranges) ? ranges : []) {
        const from = Number(r.offset);
        const to = from + Number(r.length);
        for (let i = Math.max(0, from); i < Math.min(t.length, to); i++) f(i, r);
      }
    };
    each(b.inlineStyleRanges, (i, r) => styles[i]?.add(String(r.style)));
    each(b.entityRanges, (i, r) => {
      const e = entities[String(r.key)];
      const url = e?.type === 'LINK' ? (e.data?.url ?? e.data?.href) : undefined;
      if (typeof url === 'string') links[i] = url;
    });
    let html = '';
    for (let i = 0; i < t.length;) {
      let j = i + 1;
      const key = (k: number) => `${[...(styles[k] ?? [])].sort().join()}|${links[k] ?? ''}`;
      while (j < t.length && key(j) === key(i)) j++;
      let run = escapeHtml(t.slice(i, j)).replace(/\n/g, '<br>');
      for (const s of [...(styles[i] ?? [])].sort()) {
        const tag = DRAFT_TAGS[s];
        if (tag) run = tag[0] + run + tag[1];
      }
      const href = links[i];
      if (href) run = `<a href="${escapeHtml(href)}">${run}</a>`;
      html += run;
      i = j;
    }
    const type = typeof b?.type === 'string' ? b.type : 'unstyled';
    const wanted = type === 'unordered-list-item' ? 'ul' : type === 'ordered-list-item' ? 'ol' : undefined;
    if (list && list !== wanted) out.push(`</${list}>`);
    if (wanted && list !== wanted) out.push(`<${wanted}>`);
    list = wanted;
    const tag = wanted ? 'li' : (BLOCK_HTML[type] ?? 'p');
    out.push(`<${tag}>${html}</${tag}>`);
  }
  if (list) out.push(`</${list}>`);
  return out.join('');
}
