/**
 * REMARKs after REMARK 2, from the mmCIF items that carry them: 3 and 200 (legacy-remark-templates; 3 of
 * PHENIX entries in legacy-remark3-phenix),
 * 3, 210 and 215 of NMR entries (legacy-remark-nmr),
 * 4 (format version), 100 (processing site), 280 (crystal), 290 (crystal symmetry: legacy-remark290),
 * 300 and 350 (assemblies), 465, 470, 480 and 610 (missing residues and atoms, atoms at zero occupancy), 500 (validation:
 * pdbx_validate_*), 800 (sites) and 900 (related entries), 620 (metal coordination).
 */
import { assemblyParts, type AssemblyPart } from '../../../core/mmcif/assembly.js';
import type { Transform } from '../../../core/mmcif/legacy.js';
import { atomField, type Block, fx, indentedWrap, multiModel, pad80, reader, remarkLine, residueColumns, rows, value, wrapWords } from './legacy-cif.js';
import { remark290 } from './legacy-remark290.js';
import { remark500 } from './legacy-remark500.js';
import { remark200, remark3 } from './legacy-remark-templates.js';
import { refinedWithPhenix, remark3Phenix } from './legacy-remark3-phenix.js';
import { remark210, remark215, remark3Nmr } from './legacy-remark-nmr.js';
import { remark245, remark247, remark3Em } from './legacy-remark-em.js';

const line = remarkLine;

function remark4(idCode: string): string[] {
  return [line(4), line(4, `${idCode} COMPLIES WITH FORMAT V. 3.30, 13-JUL-11`)];
}

/** REMARK 100: where the entry was processed (newer files add a date the mmCIF does not keep) and its deposition id. */
function remark100(block: Block): string[] {
  const site = value(block, 'pdbx_database_status', 'process_site');
  if (!site) return [];
  const out = [line(100), line(100, `THIS ENTRY HAS BEEN PROCESSED BY ${site.toUpperCase()}.`)];
  for (let i = 0; i < rows(block, 'database_2'); i++) {
    if (value(block, 'database_2', 'database_id', i) === 'WWPDB') out.push(line(100, `THE DEPOSITION ID IS ${value(block, 'database_2', 'database_code', i)}.`));
  }
  return out;
}

function remark280(block: Block): string[] {
  // A crystal's remark: NMR and EM files may carry an empty exptl_crystal row.
  if (!rows(block, 'exptl_crystal') || !/DIFFRACTION|CRYSTALLOGRAPHY/.test(value(block, 'exptl', 'method').toUpperCase())) return [];
  const v = reader(block, 'exptl_crystal');
  const conditions = value(block, 'exptl_crystal_grow', 'pdbx_details').toUpperCase();
  const out = [line(280), line(280, 'CRYSTAL'), line(280, `SOLVENT CONTENT, VS   (%): ${v('density_percent_sol') || 'NULL'}`)];
  out.push(line(280, `MATTHEWS COEFFICIENT, VM (ANGSTROMS**3/DA): ${v('density_Matthews') || 'NULL'}`), line(280));
  const text = indentedWrap(`CRYSTALLIZATION CONDITIONS: ${conditions || 'NULL'}`, 68);
  return [...out, ...text.map((t) => line(280, t))];
}

/** Author chain ids of label asym ids. */
function authChains(block: Block): Map<string, string> {
  const out = new Map<string, string>();
  for (const [category, asym, auth] of [
    ['pdbx_poly_seq_scheme', 'asym_id', 'pdb_strand_id'],
    ['pdbx_nonpoly_scheme', 'asym_id', 'pdb_strand_id'],
    ['pdbx_branch_scheme', 'asym_id', 'pdb_asym_id'],
  ] as const) {
    for (let i = 0; i < rows(block, category); i++) if (!out.has(value(block, category, asym, i))) out.set(value(block, category, asym, i), value(block, category, auth, i));
  }
  return out;
}

/** BIOMT lines of one operator (rotation rows, then translation). */
function biomt(t: Transform, serial: number): string[] {
  const out: string[] = [];
  for (let r = 0; r < 3; r++) {
    const m = (c: number) => fx(t[r * 3 + c] ?? 0, 10, 6);
    out.push(line(350, `  BIOMT${r + 1} ${String(serial).padStart(3)}${m(0)}${m(1)}${m(2)}     ${fx(t[9 + r] ?? 0, 10, 5)}`));
  }
  return out;
}

/** One assembly's REMARK 350 paragraph. */
function assembly350(block: Block, row: number, chains: Map<string, string>): string[] {
  const v = reader(block, 'pdbx_struct_assembly');
  const id = v('id', row);
  const details = v('details', row);
  const oligomer = v('oligomeric_details', row).toUpperCase();
  const out = [line(350), line(350, `BIOMOLECULE: ${id}`)];
  if (details.includes('author')) out.push(line(350, `AUTHOR DETERMINED BIOLOGICAL UNIT: ${oligomer}`));
  if (details.includes('software')) {
    out.push(line(350, `SOFTWARE DETERMINED QUATERNARY STRUCTURE: ${oligomer}`));
    if (v('method_details', row)) out.push(line(350, `SOFTWARE USED: ${v('method_details', row).toUpperCase()}`));
    const prop = (type: string) => {
      for (let i = 0; i < rows(block, 'pdbx_struct_assembly_prop'); i++) {
        if (value(block, 'pdbx_struct_assembly_prop', 'biol_id', i) === id && value(block, 'pdbx_struct_assembly_prop', 'type', i) === type)
          return value(block, 'pdbx_struct_assembly_prop', 'value', i);
      }
      return '';
    };
    if (prop('ABSA (A^2)')) out.push(line(350, `TOTAL BURIED SURFACE AREA: ${prop('ABSA (A^2)')} ANGSTROM**2`));
    if (prop('SSA (A^2)')) out.push(line(350, `SURFACE AREA OF THE COMPLEX: ${prop('SSA (A^2)')} ANGSTROM**2`));
    if (prop('MORE')) out.push(line(350, `CHANGE IN SOLVENT FREE ENERGY: ${Number(prop('MORE')).toFixed(1)} KCAL/MOL`));
  }
  let parts: AssemblyPart[] = [];
  try {
    parts = assemblyParts(block, id);
  } catch {
    // An expression that names no listed operator: the paragraph keeps its header only.
  }
  // Each generator row's chains, then one BIOMT per operator of its expression ("1,2" is two; "(1)(2)" their product).
  let serial = 0;
  let current: ReadonlySet<string> | undefined;
  for (const part of parts) {
    if (part.asyms !== current) {
      current = part.asyms;
      const list = [...new Set([...part.asyms].map((a) => chains.get(a) ?? a))].filter(Boolean);
      wrapWords(list.join(', '), 38).forEach((t, k) => out.push(line(350, `${k === 0 ? 'APPLY THE FOLLOWING TO CHAINS:' : '                   AND CHAINS:'} ${t}`)));
    }
    out.push(...biomt(part.operator.transform, ++serial));
  }
  return out;
}

function remark300and350(block: Block): string[] {
  const n = rows(block, 'pdbx_struct_assembly');
  if (!n) return [];
  const ids = Array.from({ length: n }, (_, i) => value(block, 'pdbx_struct_assembly', 'id', i));
  const r300 = [line(300), line(300, `BIOMOLECULE: ${ids.join(', ')}`)];
  for (const t of [
    'SEE REMARK 350 FOR THE AUTHOR PROVIDED AND/OR PROGRAM',
    'GENERATED ASSEMBLY INFORMATION FOR THE STRUCTURE IN',
    'THIS ENTRY. THE REMARK MAY ALSO PROVIDE INFORMATION ON',
    'BURIED SURFACE AREA.',
  ])
    r300.push(line(300, t));
  const r350 = [line(350)];
  for (const t of [
    'COORDINATES FOR A COMPLETE MULTIMER REPRESENTING THE KNOWN',
    'BIOLOGICALLY SIGNIFICANT OLIGOMERIZATION STATE OF THE',
    'MOLECULE CAN BE GENERATED BY APPLYING BIOMT TRANSFORMATIONS',
    'GIVEN BELOW.  BOTH NON-CRYSTALLOGRAPHIC AND',
    'CRYSTALLOGRAPHIC OPERATIONS ARE GIVEN.',
  ])
    r350.push(line(350, t));
  const chains = authChains(block);
  for (let i = 0; i < n; i++) r350.push(...assembly350(block, i, chains));
  return [...r300, ...r350];
}

const MISSING_INTRO: Record<number, string[]> = {
  465: ['MISSING RESIDUES', 'THE FOLLOWING RESIDUES WERE NOT LOCATED IN THE', 'EXPERIMENT. (M=MODEL NUMBER; RES=RESIDUE NAME; C=CHAIN', 'IDENTIFIER; SSSEQ=SEQUENCE NUMBER; I=INSERTION CODE.)', ''],
  470: ['MISSING ATOM', 'THE FOLLOWING RESIDUES HAVE MISSING ATOMS (M=MODEL NUMBER;', 'RES=RESIDUE NAME; C=CHAIN IDENTIFIER; SSEQ=SEQUENCE NUMBER;', 'I=INSERTION CODE):'],
  480: [
    'ZERO OCCUPANCY ATOM',
    'THE FOLLOWING RESIDUES HAVE ATOMS MODELED WITH ZERO',
    'OCCUPANCY. THE LOCATION AND PROPERTIES OF THESE ATOMS',
    'MAY NOT BE RELIABLE. (M=MODEL NUMBER; RES=RESIDUE NAME;',
    'C=CHAIN IDENTIFIER; SSEQ=SEQUENCE NUMBER; I=INSERTION CODE):',
  ],
  610: ['MISSING HETEROATOM', 'THE FOLLOWING RESIDUES HAVE MISSING ATOMS (M=MODEL NUMBER;', 'RES=RESIDUE NAME; C=CHAIN IDENTIFIER; SSEQ=SEQUENCE NUMBER;', 'I=INSERTION CODE):'],
};
const MISSING_HEAD: Record<number, string> = { 465: '  M RES C SSSEQI', 470: '  M RES CSSEQI  ATOMS', 480: '  M RES C SSEQI ATOMS', 610: '  M RES C SSEQI' };

/** REMARK 465 (unobserved residues), 470 (polymer residues missing atoms), 480 (atoms at zero occupancy) and 610 (HET groups missing atoms). */
function missing(block: Block): string[] {
  const multi = multiModel(block);
  const tables = new Map<number, string[]>([
    [465, []],
    [470, []],
    [480, []],
    [610, []],
  ]);
  const r = reader(block, 'pdbx_unobs_or_zero_occ_residues');
  const unobserved: { model: string; text: string }[] = [];
  for (let i = 0; i < rows(block, 'pdbx_unobs_or_zero_occ_residues'); i++) {
    if (r('occupancy_flag', i) !== '1') continue;
    unobserved.push({ model: r('PDB_model_num', i), text: residueColumns('', r('auth_comp_id', i), r('auth_asym_id', i), r('auth_seq_id', i), r('PDB_ins_code', i), ' ', 5) });
  }
  const same = multi ? sameInEveryModel(block, unobserved) : undefined;
  if (!same) for (const u of unobserved) tables.get(465)?.push(multi ? `${u.model.padStart(3)}${u.text.slice(3)}` : u.text);
  // Atoms grouped by residue: 470 and 480 list their names, 610 the residue only. Flag 1: unobserved; 0: at zero occupancy.
  const a = reader(block, 'pdbx_unobs_or_zero_occ_atoms');
  const residues = new Map<string, { remark: number; text: string; names: string[] }>();
  for (let i = 0; i < rows(block, 'pdbx_unobs_or_zero_occ_atoms'); i++) {
    const flag = a('occupancy_flag', i);
    if (flag !== '1' && flag !== '0') continue;
    const remark = flag === '0' ? 480 : a('polymer_flag', i) === 'Y' ? 470 : 610;
    const text = residueColumns(multi ? a('PDB_model_num', i) : '', a('auth_comp_id', i), a('auth_asym_id', i), a('auth_seq_id', i), a('PDB_ins_code', i), remark === 470 ? '' : ' ');
    const entry = residues.get(`${remark}|${text}`) ?? { remark, text, names: [] };
    entry.names.push(a('auth_atom_id', i));
    residues.set(`${remark}|${text}`, entry);
  }
  const names: Record<number, (n: string) => string> = { 470: (n) => ` ${n.padEnd(4)}`, 480: (n) => `  ${n.padEnd(4)}` };
  for (const e of residues.values()) {
    const name = names[e.remark];
    tables.get(e.remark)?.push(name ? `${e.text}${e.remark === 470 ? '  ' : ''}${e.names.map(name).join('')}` : e.text);
  }
  const out: string[] = [];
  // Residues missing alike from every model of an ensemble: listed once, for the range of models.
  if (same) out.push(line(465), ...MODELS_INTRO.map((t) => line(465, t)), line(465, `  MODELS ${same.models}`), line(465, '    RES C SSSEQI'), ...same.rows.map((t) => line(465, t)));
  for (const [n, list] of tables) {
    if (list.length) out.push(line(n), ...(MISSING_INTRO[n] ?? []).map((t) => line(n, t)), line(n, MISSING_HEAD[n]), ...list.map((t) => line(n, t)));
  }
  return out;
}

const MODELS_INTRO = ['MISSING RESIDUES', 'THE FOLLOWING RESIDUES WERE NOT LOCATED IN THE', 'EXPERIMENT. (RES=RESIDUE NAME; C=CHAIN IDENTIFIER;', 'SSSEQ=SEQUENCE NUMBER; I=INSERTION CODE.)'];

/** The unobserved residues when every model (numbered first to last without a gap) misses the same ones, in the same order. */
function sameInEveryModel(block: Block, unobserved: readonly { model: string; text: string }[]): { models: string; rows: string[] } | undefined {
  if (unobserved.length === 0) return undefined;
  const numbers = new Set<number>();
  const field = block.categories.atom_site?.getField('pdbx_PDB_model_num');
  for (let i = 0; field && i < rows(block, 'atom_site'); i++) numbers.add(field.int(i));
  const models = [...numbers].sort((a, b) => a - b);
  const first = models[0] as number;
  const last = models[models.length - 1] as number;
  if (models.length < 2 || last - first + 1 !== models.length) return undefined;
  const byModel = new Map<number, string[]>();
  for (const u of unobserved) {
    const list = byModel.get(Number(u.model));
    if (list) list.push(u.text);
    else byModel.set(Number(u.model), [u.text]);
  }
  const rowsOfFirst = byModel.get(first) ?? [];
  if (byModel.size !== models.length || models.some((m) => (byModel.get(m) ?? []).join('\n') !== rowsOfFirst.join('\n'))) return undefined;
  return { models: `${first}-${last}`, rows: rowsOfFirst };
}

/** One metal's REMARK 620 table: its ligands, then the angles between them as a lower triangle. */
function metal620(block: Block, rowsOf: number[], multi: boolean): string[] {
  const v = reader(block, 'pdbx_struct_conn_angle');
  const partner = (p: 1 | 2 | 3, i: number) =>
    `${residueColumns('', v(`ptnr${p}_auth_comp_id`, i), v(`ptnr${p}_auth_asym_id`, i), v(`ptnr${p}_auth_seq_id`, i), v(`ptnr${p}_PDB_ins_code`, i)).slice(4)} ${atomField(v(`ptnr${p}_label_atom_id`, i), v(`ptnr${p}_auth_comp_id`, i), block)}`;
  const ligands: string[] = [];
  const angles = new Map<string, string>();
  for (const i of rowsOf) {
    const [a, b] = [partner(1, i), partner(3, i)];
    for (const l of [a, b]) if (!ligands.includes(l)) ligands.push(l);
    angles.set(`${a}|${b}`, v('value', i)).set(`${b}|${a}`, v('value', i));
  }
  const first = rowsOf[0] as number;
  const metal = residueColumns(
    multi ? v('ptnr2_PDB_model_num', first) : '',
    v('ptnr2_auth_comp_id', first),
    v('ptnr2_auth_asym_id', first),
    v('ptnr2_auth_seq_id', first),
    v('ptnr2_PDB_ins_code', first),
  );
  const out = [
    line(620),
    line(620, 'COORDINATION ANGLES FOR:  M RES CSSEQI METAL'),
    pad80(`REMARK 620${' '.repeat(25)}${metal} ${atomField(v('ptnr2_label_atom_id', first), v('ptnr2_auth_comp_id', first), block)}`),
  ];
  out.push(line(620, 'N RES CSSEQI ATOM'));
  ligands.forEach((l, k) => {
    const cells = ligands.slice(0, k).map((o) => {
      const a = Number(angles.get(`${l}|${o}`));
      return Number.isFinite(a) && angles.has(`${l}|${o}`) ? a.toFixed(1).padStart(6) : '      ';
    });
    out.push(line(620, `${String(k + 1).slice(-1)} ${l}${cells.join('')}`));
  });
  const numbers = ligands.slice(0, -1).map((_, k) => `${String(k + 1).padStart(5)} `);
  return [...out, line(620, `N${' '.repeat(16)}${numbers.join('')}`)];
}

/** REMARK 620: metal coordination angles (pdbx_struct_conn_angle), one table per metal atom. */
function remark620(block: Block): string[] {
  const v = reader(block, 'pdbx_struct_conn_angle');
  const byMetal = new Map<string, number[]>();
  for (let i = 0; i < rows(block, 'pdbx_struct_conn_angle'); i++) {
    const key = ['ptnr2_auth_asym_id', 'ptnr2_auth_seq_id', 'ptnr2_PDB_ins_code', 'ptnr2_label_atom_id'].map((f) => v(f, i)).join('|');
    byMetal.set(key, [...(byMetal.get(key) ?? []), i]);
  }
  if (!byMetal.size) return [];
  const intro = ['METAL COORDINATION', '(M=MODEL NUMBER; RES=RESIDUE NAME; C=CHAIN IDENTIFIER;', 'SSEQ=SEQUENCE NUMBER; I=INSERTION CODE):'];
  const multi = multiModel(block);
  return [line(620), ...intro.map((t) => line(620, t)), ...[...byMetal.values()].flatMap((r) => metal620(block, r, multi))];
}

function remark800(block: Block): string[] {
  const v = reader(block, 'struct_site');
  const out: string[] = [];
  for (let i = 0; i < rows(block, 'struct_site'); i++) {
    out.push(...(i === 0 ? [line(800), line(800, 'SITE')] : [line(800)]));
    out.push(line(800, `SITE_IDENTIFIER: ${v('id', i)}`), line(800, `EVIDENCE_CODE: ${v('pdbx_evidence_code', i).toUpperCase() || 'NULL'}`));
    out.push(...wrapWords(`SITE_DESCRIPTION: ${v('details', i).toUpperCase() || 'NULL'}`, 68).map((t) => line(800, t)));
  }
  return out;
}

function remark900(block: Block): string[] {
  const v = reader(block, 'pdbx_database_related');
  const out: string[] = [];
  for (let i = 0; i < rows(block, 'pdbx_database_related'); i++) {
    if (i === 0) out.push(line(900), line(900, 'RELATED ENTRIES'));
    out.push(line(900, `RELATED ID: ${v('db_id', i).padEnd(6)} RELATED DB: ${v('db_name', i)}`));
    out.push(...wrapWords(v('details', i).toUpperCase(), 68).map((t) => line(900, t)));
  }
  return out;
}

/** REMARK 3 onwards (the header's record ordering puts them in number order). */
export function laterRemarks(block: Block, idCode: string): string[] {
  return [
    ...(refinedWithPhenix(block) && remark3(block).length ? remark3Phenix(block) : remark3(block)),
    ...remark3Nmr(block),
    ...remark3Em(block),
    ...remark4(idCode),
    ...remark100(block),
    ...remark200(block),
    ...remark210(block),
    ...remark215(block),
    ...remark245(block),
    ...remark247(block),
    ...remark280(block),
    ...remark290(block),
    ...remark300and350(block),
    ...missing(block),
    ...remark500(block),
    ...remark620(block),
    ...remark800(block),
    ...remark900(block),
  ];
}
