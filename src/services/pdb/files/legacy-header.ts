/**
 * Records of a legacy `.pdb` file that the structure-file pool's writer does not write, from the
 * mmCIF: COMPND and SOURCE, REVDAT (from pdbx_audit_revision_history, newest first, so readers such
 * as Biopython's `parse_pdb_header` take the last one as the release date), JRNL (the primary
 * citation), REMARK 1 (the other citations), REMARK 2 (resolution), HELIX (struct_conf), SSBOND and
 * LINK (struct_conn) here; CAVEAT, SPRSDE, SEQADV, MODRES, HETSYN, FORMUL, SITE and MTRIX (legacy-records),
 * SHEET and CISPEP (legacy-sheet), REMARK 3 onwards (legacy-remarks), CONECT and MASTER
 * (legacy-connect). The header is put in the wwPDB format's record order; CONECT and MASTER follow
 * the coordinates. The mmCIF is parsed again here, once per stored file (the result is cached with
 * the converted file); a file that does not parse keeps the pool's shorter header rather than
 * failing the request.
 */
import { parseCif } from '../../../core/mmcif/index.js';
import { firstBlock } from '../../../core/mmcif/parse.js';
import { atomField as linkAtomName, type Block, legacyDate, pad80, rows, value, wrapWords } from './legacy-cif.js';
import { conect, master } from './legacy-connect.js';
import type { ComponentDictionary } from './source.js';
import type { ComponentBond } from '../store/tables.js';
import { caveat, formul, hetsyn, modres, mtrix, seqadv, site, sprsde } from './legacy-records.js';
import { laterRemarks } from './legacy-remarks.js';
import { cispep, sheet } from './legacy-sheet.js';

/** "Perutz, M.F." written the legacy way: "M.F.PERUTZ". */
function legacyAuthor(name: string): string {
  const comma = name.indexOf(',');
  return (comma < 0 ? name : `${name.slice(comma + 1).trim()}${name.slice(0, comma).trim()}`).toUpperCase();
}

interface Revision {
  ordinal: number;
  date: string;
  /** Names of the records the revision changed (older mmCIFs list them; newer ones name categories instead). */
  records: string[];
}

/** The revisions of mmCIFs written before pdbx_audit_revision_history: database_PDB_rev and its records. */
function olderRevisions(block: Block): Revision[] {
  const out: Revision[] = [];
  for (let i = 0; i < rows(block, 'database_PDB_rev'); i++) {
    const ordinal = Number(value(block, 'database_PDB_rev', 'num', i)) || i + 1;
    const records: string[] = [];
    for (let k = 0; k < rows(block, 'database_PDB_rev_record'); k++) {
      if (value(block, 'database_PDB_rev_record', 'rev_num', k) === String(ordinal)) records.push(value(block, 'database_PDB_rev_record', 'type', k).toUpperCase());
    }
    out.push({ ordinal, date: value(block, 'database_PDB_rev', 'date', i), records: records.filter(Boolean) });
  }
  return out;
}

function revdat(block: Block, idCode: string): string[] {
  const n = rows(block, 'pdbx_audit_revision_history');
  const out: string[] = [];
  let revisions: Revision[] = [];
  for (let i = 0; i < n; i++) {
    const type = value(block, 'pdbx_audit_revision_history', 'data_content_type', i);
    if (type && type !== 'Structure model') continue;
    const ordinal = Number(value(block, 'pdbx_audit_revision_history', 'ordinal', i)) || i + 1;
    revisions.push({ ordinal, date: value(block, 'pdbx_audit_revision_history', 'revision_date', i), records: [] });
  }
  if (!n) revisions = olderRevisions(block);
  revisions.sort((a, b) => b.ordinal - a.ordinal);
  for (const r of revisions) {
    // Columns 8-10 modNum, 11-12 continuation, 14-22 date, 24-27 id, 32 modType (0: initial release, 1: other),
    // 40-66 up to four record names, seven columns apart.
    const head = (k: number) =>
      `REVDAT ${String(r.ordinal).padStart(3)}${k ? String(k + 1).padStart(2) : '  '} ${legacyDate(r.date)} ${idCode.slice(0, 4).padEnd(4)}    ${r.ordinal === 1 ? '0' : '1'}`;
    if (!r.records.length) out.push(pad80(head(0)));
    for (let k = 0; k < r.records.length; k += 4)
      out.push(
        pad80(
          `${head(k / 4)}       ${r.records
            .slice(k, k + 4)
            .map((t) => t.padEnd(6))
            .join(' ')}`,
        ),
      );
  }
  return out;
}

/** A JRNL sub-record's text over continued lines (text in columns 20-79: 60 characters). */
function jrnlText(sub: string, text: string, out: string[], separator = ' ', prefix = 'JRNL        '): void {
  const pieces = separator === ',' ? text.split(',').map((p, i, all) => (i < all.length - 1 ? `${p},` : p)) : text.replace(/\s+/g, ' ').trim().split(' ');
  let line = '';
  let n = 1;
  const flush = () => {
    out.push(pad80(`${prefix}${sub.padEnd(4)}${n === 1 ? '  ' : String(n).padStart(2)} ${line}`));
    n++;
    line = '';
  };
  for (const p of pieces) {
    const joined = separator === ',' ? `${line}${p}` : line ? `${line} ${p}` : p;
    if (line && joined.length > 60) flush();
    line = separator === ',' ? `${line}${p}` : line ? `${line} ${p}` : p.slice(0, 60);
  }
  if (line) flush();
}

/** Legacy names ("M.F.PERUTZ") of a citation's authors or editors, in their order. */
function names(block: Block, category: 'citation_author' | 'citation_editor', id: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < rows(block, category); i++) if (value(block, category, 'citation_id', i) === id) out.push(legacyAuthor(value(block, category, 'name', i)));
  return out;
}

/**
 * A citation's sub-records, as JRNL (the primary one) or REMARK 1 (the others) lay them out:
 * AUTH, TITL, EDIT, REF, PUBL, REFN, PMID, DOI. A book (a citation with a publisher) keeps its
 * title's spacing over REF continuation lines and has an empty REFN, as the archive's files write
 * it; a journal's abbreviation is written without spaces after its dots.
 */
function citationRecords(block: Block, row: number, prefix: string): string[] {
  const id = value(block, 'citation', 'id', row);
  const out: string[] = [];
  const authors = names(block, 'citation_author', id);
  if (authors.length) jrnlText('AUTH', authors.join(','), out, ',', prefix);
  const title = value(block, 'citation', 'title', row);
  if (title) jrnlText('TITL', title.toUpperCase(), out, ' ', prefix);
  const editors = names(block, 'citation_editor', id);
  if (editors.length) jrnlText('EDIT', editors.join(','), out, ',', prefix);
  const publisher = value(block, 'citation', 'book_publisher', row);
  const abbrev = value(block, 'citation', 'journal_abbrev', row).toUpperCase();
  const journal = publisher ? abbrev : abbrev.replace(/\.\s+/g, '.');
  const volume = value(block, 'citation', 'journal_volume', row);
  const page = value(block, 'citation', 'page_first', row);
  const year = value(block, 'citation', 'year', row);
  if (journal) {
    // Columns 20-47 journal (continued on "REF  2" lines for a book), 50-51 "V.", 52-55 volume, 57-61 first page, 63-66 year.
    const published = journal !== 'TO BE PUBLISHED';
    const [first = '', ...more] = publisher ? wrapWords(journal, 28) : [journal.slice(0, 28)];
    out.push(pad80(`${prefix}REF    ${first.padEnd(28)}${published ? `  V.${volume.padStart(4)} ${page.padStart(5)} ${year.padStart(4)}` : ''}`));
    more.forEach((l, k) => out.push(pad80(`${prefix}REF ${String(k + 2).padStart(2)} ${l}`)));
  }
  if (publisher) jrnlText('PUBL', publisher.toUpperCase(), out, ' ', prefix);
  const issn = value(block, 'citation', 'journal_id_ISSN', row);
  // A book's ISBN (the archive keeps it in the ISSN item) is not written: its REFN line is empty.
  if (publisher) out.push(pad80(`${prefix}REFN`));
  else if (issn) out.push(pad80(`${prefix}REFN                   ISSN ${issn}`));
  const pmid = value(block, 'citation', 'pdbx_database_id_PubMed', row);
  if (pmid) out.push(pad80(`${prefix}PMID   ${pmid}`));
  const doi = value(block, 'citation', 'pdbx_database_id_DOI', row);
  if (doi) out.push(pad80(`${prefix}DOI    ${doi.toUpperCase()}`));
  return out;
}

function jrnl(block: Block): string[] {
  for (let i = 0; i < rows(block, 'citation'); i++) if (value(block, 'citation', 'id', i) === 'primary') return citationRecords(block, i, 'JRNL        ');
  return [];
}

/** The citation's number: its numeric id, or after every numbered one. */
const citationOrder = (id: string) => (/^\d+$/.test(id) ? Number(id) : Number.MAX_SAFE_INTEGER);

/**
 * REMARK 1: the entry's other citations, numbered as REFERENCE n in the order of their ids (the
 * mmCIF may list them otherwise: 4HHB's has 1, 3-6, 2, 7, 8).
 */
function remark1(block: Block): string[] {
  const out: string[] = [];
  let n = 0;
  const others = Array.from({ length: rows(block, 'citation') }, (_, i) => i).filter((i) => value(block, 'citation', 'id', i) !== 'primary');
  others.sort((a, b) => citationOrder(value(block, 'citation', 'id', a)) - citationOrder(value(block, 'citation', 'id', b)));
  for (const i of others) {
    if (!n) out.push(pad80('REMARK   1'));
    n++;
    out.push(pad80(`REMARK   1 REFERENCE ${n}`));
    out.push(...citationRecords(block, i, 'REMARK   1  '));
  }
  return out;
}

function remark2(block: Block): string[] {
  const method = value(block, 'exptl', 'method').toUpperCase();
  const resolution = value(block, 'refine', 'ls_d_res_high') || value(block, 'em_3d_reconstruction', 'resolution') || value(block, 'reflns', 'd_resolution_high');
  const out = [pad80('REMARK   2')];
  const r = Number(resolution);
  if (resolution && Number.isFinite(r)) out.push(pad80(`REMARK   2 RESOLUTION. ${r.toFixed(2).padStart(7)} ANGSTROMS.`));
  else if (method.includes('NMR')) out.push(pad80('REMARK   2 RESOLUTION. NOT APPLICABLE.'));
  else out.push(pad80('REMARK   2 RESOLUTION. NULL ANGSTROMS.'));
  return out;
}

/** HELIX records from struct_conf (helices only), author numbering. */
function helix(block: Block): string[] {
  const out: string[] = [];
  const v = (f: string, i: number) => value(block, 'struct_conf', f, i);
  let serial = 0;
  for (let i = 0; i < rows(block, 'struct_conf'); i++) {
    if (!v('conf_type_id', i).startsWith('HELX')) continue;
    const chain1 = v('beg_auth_asym_id', i);
    const chain2 = v('end_auth_asym_id', i);
    if (chain1.length > 1 || chain2.length > 1) continue;
    serial++;
    const id = (v('pdbx_PDB_helix_id', i) || String(serial)).slice(0, 3);
    const comment = v('details', i).toUpperCase().slice(0, 30);
    out.push(
      pad80(
        `HELIX  ${String(serial).padStart(3)} ${id.padStart(3)} ${v('beg_auth_comp_id', i).padStart(3)} ${chain1 || ' '} ${v('beg_auth_seq_id', i).padStart(4)}${v('pdbx_beg_PDB_ins_code', i) || ' '} ` +
          `${v('end_auth_comp_id', i).padStart(3)} ${chain2 || ' '} ${v('end_auth_seq_id', i).padStart(4)}${v('pdbx_end_PDB_ins_code', i) || ' '}${(v('pdbx_PDB_helix_class', i) || '1').padStart(2)}${comment.padEnd(30)} ${v('pdbx_PDB_helix_length', i).padStart(5)}`,
      ),
    );
  }
  return out;
}

const symmetry = (s: string) => (s || '1_555').replace('_', '').padStart(6);

/** SSBOND (disulfides) and LINK (other covalent and metal bonds) from struct_conn, author naming. */
function connections(block: Block): { ssbond: string[]; link: string[] } {
  const ssbond: string[] = [];
  const link: string[] = [];
  const v = (f: string, i: number) => value(block, 'struct_conn', f, i);
  for (let i = 0; i < rows(block, 'struct_conn'); i++) {
    const type = v('conn_type_id', i);
    if (type === 'hydrog') continue;
    const c1 = v('ptnr1_auth_asym_id', i);
    const c2 = v('ptnr2_auth_asym_id', i);
    if (c1.length > 1 || c2.length > 1) continue;
    const distance = Number(v('pdbx_dist_value', i));
    const dist = v('pdbx_dist_value', i) && Number.isFinite(distance) ? distance.toFixed(2).padStart(5) : '     ';
    const syms = `${symmetry(v('ptnr1_symmetry', i))} ${symmetry(v('ptnr2_symmetry', i))} ${dist}`;
    const comp1 = v('ptnr1_auth_comp_id', i) || v('ptnr1_label_comp_id', i);
    const comp2 = v('ptnr2_auth_comp_id', i) || v('ptnr2_label_comp_id', i);
    const seq1 = v('ptnr1_auth_seq_id', i).padStart(4);
    const seq2 = v('ptnr2_auth_seq_id', i).padStart(4);
    const ins1 = v('pdbx_ptnr1_PDB_ins_code', i) || ' ';
    const ins2 = v('pdbx_ptnr2_PDB_ins_code', i) || ' ';
    if (type === 'disulf') {
      ssbond.push(pad80(`SSBOND ${String(ssbond.length + 1).padStart(3)} ${comp1.padStart(3)} ${c1 || ' '} ${seq1}${ins1}   ${comp2.padStart(3)} ${c2 || ' '} ${seq2}${ins2}${' '.repeat(23)}${syms}`));
    } else {
      const a1 = `${linkAtomName(v('ptnr1_label_atom_id', i), comp1, block)}${v('pdbx_ptnr1_label_alt_id', i) || ' '}${comp1.padStart(3)} ${c1 || ' '}${seq1}${ins1}`;
      const a2 = `${linkAtomName(v('ptnr2_label_atom_id', i), comp2, block)}${v('pdbx_ptnr2_label_alt_id', i) || ' '}${comp2.padStart(3)} ${c2 || ' '}${seq2}${ins2}`;
      link.push(pad80(`LINK        ${a1}${' '.repeat(15)}${a2}  ${syms}`));
    }
  }
  return { ssbond, link };
}

/** A specification record (COMPND, SOURCE): one token per line, long tokens continued, numbered from 2. */
function specification(record: string, tokens: string[]): string[] {
  const out: string[] = [];
  const push = (text: string) => out.push(pad80(out.length === 0 ? `${record}    ${text}` : `${record} ${String(out.length + 1).padStart(3)} ${text}`));
  tokens.forEach((token, k) => {
    const text = k < tokens.length - 1 ? `${token};` : token;
    let line = '';
    for (const w of text.split(' ')) {
      if (line && line.length + 1 + w.length > 69) {
        push(line);
        line = '';
      }
      line = line ? `${line} ${w}` : w;
    }
    if (line) push(line);
  });
  return out;
}

/** Author chain ids of each polymer entity, in the order the scheme lists them. */
function entityChains(block: Block): Map<string, string[]> {
  const chains = new Map<string, string[]>();
  for (let i = 0; i < rows(block, 'pdbx_poly_seq_scheme'); i++) {
    const entity = value(block, 'pdbx_poly_seq_scheme', 'entity_id', i);
    const chain = value(block, 'pdbx_poly_seq_scheme', 'pdb_strand_id', i);
    let list = chains.get(entity);
    if (!list) chains.set(entity, (list = []));
    if (chain && !list.includes(chain)) list.push(chain);
  }
  return chains;
}

/** The row of a per-entity category for an entity, or -1. */
function entityRow(block: Block, category: string, entity: string): number {
  for (let i = 0; i < rows(block, category); i++) if (value(block, category, 'entity_id', i) === entity) return i;
  return -1;
}

/** SOURCE tokens of an engineered entity in the format's order, each with its entity_src_gen item. */
const GENE_SOURCE: readonly (readonly [string, string])[] = [
  ['ORGANISM_SCIENTIFIC', 'pdbx_gene_src_scientific_name'],
  ['ORGANISM_COMMON', 'gene_src_common_name'],
  ['ORGANISM_TAXID', 'pdbx_gene_src_ncbi_taxonomy_id'],
  ['STRAIN', 'gene_src_strain'],
  ['VARIANT', 'pdbx_gene_src_variant'],
  ['CELL_LINE', 'pdbx_gene_src_cell_line'],
  ['ATCC', 'pdbx_gene_src_atcc'],
  ['ORGAN', 'pdbx_gene_src_organ'],
  ['TISSUE', 'gene_src_tissue'],
  ['CELL', 'pdbx_gene_src_cell'],
  ['ORGANELLE', 'pdbx_gene_src_organelle'],
  ['CELLULAR_LOCATION', 'pdbx_gene_src_cellular_location'],
  ['GENE', 'pdbx_gene_src_gene'],
  ['EXPRESSION_SYSTEM', 'pdbx_host_org_scientific_name'],
  ['EXPRESSION_SYSTEM_COMMON', 'host_org_common_name'],
  ['EXPRESSION_SYSTEM_TAXID', 'pdbx_host_org_ncbi_taxonomy_id'],
  ['EXPRESSION_SYSTEM_STRAIN', 'pdbx_host_org_strain'],
  ['EXPRESSION_SYSTEM_VARIANT', 'pdbx_host_org_variant'],
  ['EXPRESSION_SYSTEM_CELL_LINE', 'pdbx_host_org_cell_line'],
  ['EXPRESSION_SYSTEM_ATCC_NUMBER', 'pdbx_host_org_atcc'],
  ['EXPRESSION_SYSTEM_ORGAN', 'pdbx_host_org_organ'],
  ['EXPRESSION_SYSTEM_TISSUE', 'pdbx_host_org_tissue'],
  ['EXPRESSION_SYSTEM_CELL', 'pdbx_host_org_cell'],
  ['EXPRESSION_SYSTEM_ORGANELLE', 'pdbx_host_org_organelle'],
  ['EXPRESSION_SYSTEM_CELLULAR_LOCATION', 'pdbx_host_org_cellular_location'],
  ['EXPRESSION_SYSTEM_VECTOR_TYPE', 'pdbx_host_org_vector_type'],
  ['EXPRESSION_SYSTEM_VECTOR', 'pdbx_host_org_vector'],
  ['EXPRESSION_SYSTEM_PLASMID', 'plasmid_name'],
  ['EXPRESSION_SYSTEM_GENE', 'pdbx_host_org_gene'],
];

/** COMPND and SOURCE for the polymer entities (MOL_ID numbered from 1). */
function compndSource(block: Block): { compnd: string[]; source: string[] } {
  const chains = entityChains(block);
  const compnd: string[] = [];
  const source: string[] = [];
  let mol = 0;
  for (let i = 0; i < rows(block, 'entity'); i++) {
    if (value(block, 'entity', 'type', i) !== 'polymer') continue;
    const id = value(block, 'entity', 'id', i);
    mol++;
    const c = [`MOL_ID: ${mol}`, `MOLECULE: ${value(block, 'entity', 'pdbx_description', i).toUpperCase()}`];
    const list = chains.get(id);
    if (list?.length) c.push(`CHAIN: ${list.join(', ')}`);
    const synonym = value(block, 'entity_name_com', 'name', entityRow(block, 'entity_name_com', id));
    if (synonym) c.push(`SYNONYM: ${synonym.toUpperCase()}`);
    const ec = value(block, 'entity', 'pdbx_ec', i);
    if (ec) c.push(`EC: ${ec}`);
    const fragment = value(block, 'entity', 'pdbx_fragment', i);
    if (fragment) c.push(`FRAGMENT: ${fragment.toUpperCase()}`);
    const method = value(block, 'entity', 'src_method', i);
    if (method === 'man') c.push('ENGINEERED: YES');
    const mutation = value(block, 'entity', 'pdbx_mutation', i);
    if (mutation) c.push('MUTATION: YES');
    compnd.push(...c);
    const s = [`MOL_ID: ${mol}`];
    const add = (key: string, v: string) => {
      if (v) s.push(`${key}: ${v.toUpperCase()}`);
    };
    const gen = entityRow(block, 'entity_src_gen', id);
    const nat = entityRow(block, 'entity_src_nat', id);
    if (gen >= 0) {
      const g = (f: string) => value(block, 'entity_src_gen', f, gen);
      for (const [key, field] of GENE_SOURCE) add(key, field === 'pdbx_gene_src_gene' ? g(field).replace(/\s*,\s*/g, ', ') : g(field));
    } else if (nat >= 0) {
      const n = (f: string) => value(block, 'entity_src_nat', f, nat);
      add('ORGANISM_SCIENTIFIC', n('pdbx_organism_scientific'));
      add('ORGANISM_COMMON', n('common_name'));
      add('ORGANISM_TAXID', n('pdbx_ncbi_taxonomy_id'));
    } else if (method === 'syn') s.push('SYNTHETIC: YES');
    source.push(...s);
  }
  return { compnd: compnd.length ? specification('COMPND', compnd) : [], source: source.length ? specification('SOURCE', source) : [] };
}

/** The records this module writes for a block, header records and those after the coordinates apart. */
export function extraHeaderRecords(block: Block, idCode: string, hets: readonly string[] = []): string[] {
  const { ssbond, link } = connections(block);
  const { compnd, source } = compndSource(block);
  return [
    ...caveat(block, idCode),
    ...compnd,
    ...source,
    ...revdat(block, idCode),
    ...sprsde(block, idCode),
    ...jrnl(block),
    ...remark1(block),
    ...remark2(block),
    ...laterRemarks(block, idCode),
    ...seqadv(block, idCode),
    ...modres(block, idCode),
    ...hetsyn(block, hets),
    ...formul(block),
    ...helix(block),
    ...sheet(block),
    ...ssbond,
    ...link,
    ...cispep(block),
    ...site(block),
    ...mtrix(block),
  ];
}

/** The header's record types in the order the format gives them; REMARKs sort by number after. */
const ORDER = [
  'HEADER',
  'OBSLTE',
  'TITLE ',
  'SPLIT ',
  'CAVEAT',
  'COMPND',
  'SOURCE',
  'KEYWDS',
  'EXPDTA',
  'NUMMDL',
  'MDLTYP',
  'AUTHOR',
  'REVDAT',
  'SPRSDE',
  'JRNL  ',
  'REMARK',
  'DBREF ',
  'DBREF1',
  'DBREF2',
  'SEQADV',
  'SEQRES',
  'MODRES',
  'HET   ',
  'HETNAM',
  'HETSYN',
  'FORMUL',
  'HELIX ',
  'SHEET ',
  'SSBOND',
  'LINK  ',
  'CISPEP',
  'SITE  ',
  'CRYST1',
  'ORIGX',
  'SCALE',
  'MTRIX',
];
const RANK = new Map(ORDER.map((t, k) => [t, k]));

/** Header lines in record order; a type not listed keeps the place of the line before it. Stable within a type. */
function ordered(header: readonly string[]): string[] {
  let last = 0;
  const keyed = header.map((line, k) => {
    // ORIGXn, SCALEn and MTRIXn share a rank: each operator's three rows stay together as written.
    const type = /^(ORIGX|SCALE|MTRIX)[123]/.test(line) ? line.slice(0, 5) : line.slice(0, 6).padEnd(6);
    const rank = RANK.get(type) ?? last;
    last = rank;
    const sub = line.startsWith('REMARK') ? Number(line.slice(6, 10)) || 0 : 0;
    return { line, rank, sub, k };
  });
  keyed.sort((a, b) => a.rank - b.rank || a.sub - b.sub || a.k - b.k);
  return keyed.map((x) => x.line);
}

const COORDINATES = /^(MODEL |ATOM {2}|HETATM|TER|ANISOU|ENDMDL|CONECT|MASTER|END)/;

/** The components the HET records name (every HET group but water, in the first model), once each. */
function hetNames(header: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const l of header) if (l.startsWith('HET   ')) out.add(l.slice(7, 10).trim());
  return [...out];
}

/** The lines of legacy text before its first coordinate record, read without splitting the rest. */
function* headerLines(text: string): Generator<string> {
  for (let at = 0; at < text.length;) {
    const end = text.indexOf('\n', at);
    const l = text.slice(at, end < 0 ? text.length : end);
    if (COORDINATES.test(l)) return;
    yield l;
    if (end < 0) return;
    at = end + 1;
  }
}

/**
 * Legacy text with the extra records merged in; text without a HEADER record is returned as is.
 * `bonds`: the dictionary's bonds of the HET groups' components, where one is loaded.
 */
export function mergeHeader(text: string, block: Block, bonds: ReadonlyMap<string, readonly ComponentBond[]> = new Map()): string {
  const lines = text.split('\n');
  if (!lines[0]?.startsWith('HEADER')) return text;
  const idCode = lines[0].slice(62, 66).trim() || value(block, 'entry', 'id');
  let coordAt = lines.findIndex((l) => COORDINATES.test(l));
  if (coordAt < 0) coordAt = lines.length;
  const header = ordered([...lines.slice(0, coordAt), ...extraHeaderRecords(block, idCode, hetNames(lines.slice(0, coordAt)))]);
  // The coordinate section as written, then CONECT, MASTER and END.
  const tail = lines.slice(coordAt);
  while (tail.length && (tail[tail.length - 1] === '' || /^(END|MASTER|CONECT)/.test(tail[tail.length - 1] as string))) tail.pop();
  const body = [...header, ...tail, ...conect(block, tail, bonds)];
  return `${[...body, master(body), pad80('END')].join('\n')}\n`;
}

/** mergeHeader over the raw (possibly gzipped) mmCIF bytes; the text unchanged when they do not parse. */
export async function withHeader(text: Uint8Array, cif: Uint8Array, dictionary?: ComponentDictionary): Promise<Uint8Array> {
  const legacy = Buffer.from(text).toString('utf8');
  // Outside the guard below: a dictionary that cannot be read fails the request, rather than a
  // file without its bonds being kept as the entry's.
  const bonds = dictionary ? await dictionary.bonds(hetNames(headerLines(legacy))) : undefined;
  try {
    const block = firstBlock(await parseCif(cif));
    return new Uint8Array(Buffer.from(mergeHeader(legacy, block, bonds), 'utf8'));
  } catch {
    return text;
  }
}
