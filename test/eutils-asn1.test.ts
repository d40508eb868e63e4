import { describe, expect, it } from 'vitest';
import { asnText } from '../src/services/eutils/render/asn1.js';
import { element } from '../src/services/eutils/render/tree.js';
import { parseAsn } from './helpers/asn1.js';

describe('ASN.1 value notation', () => {
  it('quotes strings with inner quotes doubled, writes INTEGER leaves bare and enumerations by name', () => {
    const node = element('Gene-ref', [
      element('Gene-ref_locus', '123'),
      element('Gene-ref_desc', 'the "so-called" gene'),
      element('Gene-ref_db', [element('Dbtag', [element('Dbtag_db', 'MIM'), element('Dbtag_tag', [element('Object-id', [element('Object-id_id', '42')])])])]),
    ]);
    const text = asnText(node);
    expect(text).toBe('Gene-ref ::= {\n  locus "123",\n  desc "the ""so-called"" gene",\n  db {\n    {\n      db "MIM",\n      tag id 42\n    }\n  }\n}\n');
    expect(parseAsn(text)).toEqual([{ type: 'Gene-ref', value: { locus: '123', desc: 'the "so-called" gene', db: [{ db: 'MIM', tag: { id: 42 } }] } }]);
  });

  it('writes empty lists as empty braces', () => {
    expect(asnText(element('Entrezgene', [element('Entrezgene_comments', [])]))).toBe('Entrezgene ::= {\n  comments {\n  }\n}\n');
  });
});
