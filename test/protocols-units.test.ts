import { describe, expect, it } from 'vitest';
import { redirectAllowed, redirectUriProblem, type Client } from '../src/services/protocols/accounts.js';
import { bearerToken } from '../src/services/protocols/auth.js';
import { columnsOf, doiKey, normalizeWords, searchTokens } from '../src/services/protocols/extract.js';
import { parseRef } from '../src/services/protocols/handlers.js';
import { winAnsi } from '../src/services/protocols/pdf.js';
import { draftToHtml, parseHtml, plainText, toDraftJson, toMarkdown } from '../src/services/protocols/richtext.js';
import { hashPassword, sameDigest, sameSecret, sha256, verifyPassword } from '../src/services/protocols/secrets.js';

describe('rich text', () => {
  it('reads the HTML subset of protocols into blocks of styled spans', () => {
    const blocks = parseHtml('<p>Add <b>10 mL</b> of <i>buffer</i>&nbsp;&amp; mix.</p><ul><li>one</li><li><p>two</p></li></ul><ol><li>first</li></ol>');
    expect(blocks.map((b) => [b.type, b.spans.map((s) => s.text).join('')])).toEqual([
      ['paragraph', 'Add 10 mL of buffer & mix.'],
      ['ul', 'one'],
      ['ul', 'two'],
      ['ol', 'first'],
    ]);
    expect(blocks[0]?.spans.find((s) => s.text === '10 mL')?.bold).toBe(true);
  });

  it('drops scripts, comments and unsafe links, and keeps line breaks', () => {
    expect(plainText('<p>a<script>alert(1)</script><!-- x -->b<br>c</p><style>p{}</style>')).toBe('ab\nc');
    const md = toMarkdown('<p><a href="javascript:alert(1)">click</a> <a href="https://example.org/x">site</a></p>');
    expect(md).toBe('click [site](https://example.org/x)');
  });

  it('treats text without tags as paragraphs', () => {
    expect(parseHtml('one\n\ntwo  lines').map((b) => b.spans[0]?.text)).toEqual(['one', 'two lines']);
  });

  it('writes Markdown with emphasis, lists, headings and escapes', () => {
    expect(toMarkdown('<h2>Prep</h2><p>Use *only* <strong>fresh</strong> <em>cells</em></p><ol><li>a</li><li>b</li></ol>')).toBe('## Prep\n\nUse \\*only\\* **fresh** *cells*\n\n1. a\n2. b');
  });

  it('writes Draft.js raw content with style ranges and link entities', () => {
    const raw = JSON.parse(toDraftJson('<p>Mix <b>well</b> at <a href="https://example.org">this</a></p><ul><li>x</li></ul>'));
    expect(raw.entityMap).toEqual({ 0: { type: 'LINK', mutability: 'MUTABLE', data: { url: 'https://example.org' } } });
    expect(raw.blocks[0]).toMatchObject({
      text: 'Mix well at this',
      type: 'unstyled',
      inlineStyleRanges: [{ offset: 4, length: 4, style: 'BOLD' }],
      entityRanges: [{ offset: 12, length: 4, key: 0 }],
    });
    expect(raw.blocks[1]).toMatchObject({ text: 'x', type: 'unordered-list-item', depth: 0 });
    expect(new Set(raw.blocks.map((b: { key: string }) => b.key)).size).toBe(2);
  });

  it('reads Draft.js raw content back as HTML, so loaded Draft.js text serves every format', () => {
    const html = '<h2>Prep</h2><p>Mix <b>well</b> &amp; <a href="https://example.org/?a=1&amp;b=2">see</a><br>then wait</p><ul><li>one</li><li><i>two</i></li></ul><ol><li>first</li></ol>';
    const back = draftToHtml(toDraftJson(html)) as string;
    expect(back).toBe('<h2>Prep</h2><p>Mix <b>well</b> &amp; <a href="https://example.org/?a=1&amp;b=2">see</a><br>then wait</p><ul><li>one</li><li><i>two</i></li></ul><ol><li>first</li></ol>');
    expect(parseHtml(back)).toEqual(parseHtml(html));
    expect(draftToHtml('<p>already html</p>')).toBeUndefined();
    expect(draftToHtml('{"blocks": 3}')).toBeUndefined();
    expect(draftToHtml('{not json "blocks"')).toBeUndefined();
  });
});

describe('identifiers and words', () => {
  it('reads DOIs in every usual spelling', () => {
    for (const v of [
      'dx.doi.org/10.17504/protocols.io.c4gytv',
      'https://doi.org/10.17504/protocols.io.c4gytv',
      'http://dx.doi.org/10.17504/PROTOCOLS.IO.C4GYTV',
      'doi:10.17504/protocols.io.c4gytv',
      '10.17504/protocols.io.c4gytv',
    ]) {
      expect(doiKey(v), v).toBe('10.17504/protocols.io.c4gytv');
    }
    expect(doiKey('lysis-buffer-c4gytv')).toBeNull();
  });

  it('tells ids, DOIs and uris apart', () => {
    expect(parseRef('872')).toEqual({ by: 'id', id: 872 });
    expect(parseRef('dx.doi.org/10.17504/protocols.io.c4gytv')).toEqual({ by: 'doi', key: '10.17504/protocols.io.c4gytv' });
    expect(parseRef('lysis-buffer-20-ml-c4gytv')).toEqual({ by: 'uri', uri: 'lysis-buffer-20-ml-c4gytv' });
    expect(() => parseRef('has space')).toThrow();
  });

  it('normalizes words for search', () => {
    expect(normalizeWords('Lysis Buffer (20 mL) — Ångström, ÉTUDE')).toBe('lysis buffer 20 ml angstrom etude');
    expect(searchTokens('  "PCR"  mix!! ')).toEqual(['pcr', 'mix']);
    expect(searchTokens('!!!')).toEqual([]);
  });

  it('extracts the indexed columns of a protocol, refusing what cannot be served', () => {
    const c = columnsOf({
      id: '872',
      uri: 'lysis-buffer-20-ml-c4gytv',
      title: 'Lysis Buffer',
      public: '1',
      published_on: 1487372466,
      created_on: 1434670606,
      creator: { username: 'celina-gomez', name: 'Celina Gomez' },
    });
    expect(c).toMatchObject({ id: 872, owner: 'celina-gomez', public: 1, publishedOn: 1487372466, activity: 1487372466, titleKey: 'lysis buffer' });
    expect(columnsOf({ id: 0, uri: 'x', title: 't' })).toMatch(/"id"/);
    expect(columnsOf({ id: 1, uri: 'a/b', title: 't' })).toMatch(/"uri"/);
    expect(columnsOf({ id: 1, uri: 'ab' })).toMatch(/"title"/);
    expect(columnsOf({ id: 1, uri: 'ab', title: 't', public: 0 })).toMatchObject({ public: 0, owner: null });
  });

  it('keeps PDF text in the standard fonts’ encoding', () => {
    expect(winAnsi('37 °C, 5 µL, μg, β-ME, ≥ 2 → ok “q” – é')).toBe('37 °C, 5 µL, µg, beta-ME, >= 2 -> ok “q” – é');
    expect(winAnsi('漢')).toBe('?');
  });
});

describe('secrets', () => {
  it('hashes passwords with salted scrypt and checks them', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct hors', a)).toBe(false);
    expect(await verifyPassword('anything', undefined)).toBe(false);
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
  });

  it('compares digests and secrets whatever their lengths', () => {
    expect(sameDigest(sha256('a'), sha256('a'))).toBe(true);
    expect(sameDigest(sha256('a'), sha256('b'))).toBe(false);
    expect(sameDigest(sha256('a'), 'ab')).toBe(false);
    expect(sameSecret('x', 'x')).toBe(true);
    expect(sameSecret('x', 'xy')).toBe(false);
  });

  it('reads bearer tokens', () => {
    expect(bearerToken({ authorization: 'Bearer abc' })).toBe('abc');
    expect(bearerToken({ authentication: 'bearer abc' })).toBe('abc');
    expect(bearerToken({})).toBeUndefined();
    expect(bearerToken({ authorization: 'Basic abc' })).toBe('');
  });
});

describe('redirect URIs', () => {
  const client = (uris: string[]): Client => ({ id: 1, clientId: 'c', name: 'n', ownerId: 1, redirectUris: uris, secretHash: '' });

  it('matches exactly, loopback ports included (the clients are confidential)', () => {
    const c = client(['https://app.example/cb?x=1', 'http://127.0.0.1/cb', 'http://localhost/cb']);
    expect(redirectAllowed(c, 'https://app.example/cb?x=1')).toBe(true);
    expect(redirectAllowed(c, 'https://app.example/cb?x=2')).toBe(false);
    expect(redirectAllowed(c, 'https://app.example:444/cb?x=1')).toBe(false);
    expect(redirectAllowed(c, 'http://127.0.0.1/cb')).toBe(true);
    expect(redirectAllowed(c, 'http://127.0.0.1:49152/cb')).toBe(false);
    expect(redirectAllowed(c, 'http://localhost:3000/cb')).toBe(false);
    expect(redirectAllowed(c, 'http://127.0.0.1:49152/cb/')).toBe(false);
    expect(redirectAllowed(c, 'http://127.0.0.1:49152/cb#x')).toBe(false);
    expect(redirectAllowed(c, 'not a url')).toBe(false);
  });

  it('registers only absolute URIs without fragments, and not script schemes', () => {
    expect(redirectUriProblem('https://app.example/cb')).toBeNull();
    expect(redirectUriProblem('com.example.app:/oauth')).toBeNull();
    expect(redirectUriProblem('/cb')).toMatch(/not an absolute URI/);
    expect(redirectUriProblem('https://app.example/cb#x')).toMatch(/fragment/);
    expect(redirectUriProblem('javascript:alert(1)')).toMatch(/scheme/);
  });
});
