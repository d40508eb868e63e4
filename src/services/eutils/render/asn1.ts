/**
 * ASN.1 value notation (the "text ASN.1" NCBI's efetch writes for retmode=asn.1) from the same tree
 * the Entrezgene XML is written from. NCBI's XML is a mechanical image of its ASN.1 (datatool's
 * rules: `Type_member` elements, `_E` list items, enumerations as a `value` attribute), so the value
 * notation is recovered from the tree with only what the XML leaves implicit, taken from the
 * NCBI_Entrezgene DTD and its modules: which members are lists, which types are CHOICEs, and which
 * leaves are INTEGERs.
 */
import type { XNode } from './tree.js';

/** SEQUENCE OF / SET OF members: written `{ item, item }`. */
const LISTS = new Set([
  'BioSource_subtype',
  'Org-ref_db',
  'Org-ref_syn',
  'Gene-ref_db',
  'Gene-ref_syn',
  'Prot-ref_name',
  'Prot-ref_db',
  'Entrezgene_location',
  'Entrezgene_locus',
  'Entrezgene_properties',
  'Entrezgene_refgene',
  'Entrezgene_homology',
  'Entrezgene_comments',
  'Entrezgene_unique-keys',
  'Entrezgene_xtra-index-terms',
  'Entrezgene_xtra-properties',
  'Entrezgene_xtra-iq',
  'Entrezgene_non-unique-keys',
  'Gene-commentary_refs',
  'Gene-commentary_source',
  'Gene-commentary_genomic-coords',
  'Gene-commentary_seqs',
  'Gene-commentary_products',
  'Gene-commentary_properties',
  'Gene-commentary_comment',
  'Gene-commentary_xtra-properties',
]);

/** CHOICE types (and members whose type is an inline CHOICE): written `variant value`. */
const CHOICES = new Set(['Object-id', 'Date', 'Seq-id', 'Seq-loc', 'Pub', 'Maps_method']);

/** INTEGER leaves: written bare; every other text leaf is a quoted string. */
const INTEGERS = new Set([
  'Gene-track_geneid',
  'Date-std_year',
  'Date-std_month',
  'Date-std_day',
  'Object-id_id',
  'Seq-id_gi',
  'Textseq-id_version',
  'Gene-commentary_version',
  'Seq-interval_from',
  'Seq-interval_to',
  'Gene-source_src-int',
  'PubMedId',
]);

const pad = (n: number): string => '  '.repeat(n);

function quoted(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

function children(n: XNode): XNode[] {
  return Array.isArray(n.body) ? n.body : [];
}

/** `{` members or items `}` across lines, as NCBI indents them. */
function braces(lines: string[], depth: number): string {
  if (!lines.length) return '{\n' + pad(depth) + '}';
  return '{\n' + lines.map((l) => pad(depth + 1) + l).join(',\n') + '\n' + pad(depth) + '}';
}

/** The value of a node; its first line continues the current line, later lines are indented for `depth`. */
function value(n: XNode, depth: number): string {
  if (n.attrs?.value !== undefined) return n.attrs.value;
  if (!Array.isArray(n.body)) {
    const text = n.body === undefined ? '' : String(n.body);
    return INTEGERS.has(n.name) && /^-?\d+$/.test(text) ? text : quoted(text);
  }
  const kids = children(n);
  if (LISTS.has(n.name))
    return braces(
      kids.map((k) => value(k, depth + 1)),
      depth,
    );
  const prefix = `${n.name}_`;
  const members = kids.filter((k) => k.name.startsWith(prefix));
  if (members.length === 0) {
    // A member wrapping one value of a named type (`Entrezgene_track-info` > `Gene-track`).
    const only = kids[0];
    return only ? value(only, depth) : braces([], depth);
  }
  const named = members.map((m) => `${m.name.slice(prefix.length)} ${value(m, depth + 1)}`);
  if (CHOICES.has(n.name) && members.length === 1) {
    const m = members[0] as XNode;
    return `${m.name.slice(prefix.length)} ${value(m, depth)}`;
  }
  return braces(named, depth);
}

/** `Type ::= value`, one line per member, as efetch retmode=asn.1 writes each record. */
export function asnText(node: XNode): string {
  return `${node.name} ::= ${value(node, 0)}\n`;
}
