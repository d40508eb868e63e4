/**
 * Title, primary-structure, heterogen, site and transformation records of a legacy `.pdb` file, in
 * the wwPDB format's columns: CAVEAT, SPRSDE, SEQADV, HETSYN, FORMUL, SITE and MTRIXn.
 */
import { type Block, fx, legacyDate, pad80, reader, rows, STANDARD, value, WATER, wrapWords } from './legacy-cif.js';

/** Columns 9-10 of a continued record: blank on the first line, then 2, 3, ... */
const cont = (n: number) => (n === 1 ? '  ' : String(n).padStart(2));

/** CAVEAT: the database_PDB_caveat texts run together, comment in columns 20-78. */
export function caveat(block: Block, idCode: string): string[] {
  const texts: string[] = [];
  for (let i = 0; i < rows(block, 'database_PDB_caveat'); i++) texts.push(value(block, 'database_PDB_caveat', 'text', i));
  const text = texts.filter(Boolean).join(' ').toUpperCase();
  return wrapWords(text, 59).map((line, k) => pad80(`CAVEAT  ${cont(k + 1)} ${idCode.padEnd(4)}    ${line}`));
}

/** SPRSDE: the entries this one replaced, nine ids a line from column 32. */
export function sprsde(block: Block, idCode: string): string[] {
  const v = reader(block, 'pdbx_database_PDB_obs_spr');
  const out: string[] = [];
  for (let i = 0; i < rows(block, 'pdbx_database_PDB_obs_spr'); i++) {
    if (v('id', i) !== 'SPRSDE') continue;
    const replaced = v('replace_pdb_id', i)
      .toUpperCase()
      .split(/[\s,]+/)
      .filter(Boolean);
    const date = legacyDate(v('date', i));
    const id = (v('pdb_id', i) || idCode).toUpperCase();
    for (let k = 0; k < replaced.length; k += 9) {
      const ids = replaced.slice(k, k + 9).map((r) => r.padEnd(4));
      out.push(pad80(`SPRSDE  ${cont(out.length + 1)} ${date} ${id.padEnd(4)}      ${ids.join(' ')}`));
    }
  }
  return out;
}

/** One line per row of a category of residues, rows on chains with ids longer than the format's one character left out. */
function residueRows(block: Block, category: string, chainField: string, write: (v: ReturnType<typeof reader>, i: number, chain: string) => string): string[] {
  const v = reader(block, category);
  const out: string[] = [];
  for (let i = 0; i < rows(block, category); i++) {
    const chain = v(chainField, i);
    if (chain.length <= 1) out.push(pad80(write(v, i, chain || ' ')));
  }
  return out;
}

/** SEQADV: where the deposited sequence differs from the database reference (struct_ref_seq_dif). */
export function seqadv(block: Block, idCode: string): string[] {
  return residueRows(block, 'struct_ref_seq_dif', 'pdbx_pdb_strand_id', (v, i, chain) => {
    const id = (v('pdbx_pdb_id_code', i) || idCode).slice(0, 4).padEnd(4);
    const residue = `${v('mon_id', i).padStart(3)} ${chain} ${v('pdbx_auth_seq_num', i).padStart(4)}${v('pdbx_pdb_ins_code', i) || ' '}`;
    const reference = `${v('pdbx_seq_db_name', i).padEnd(4)} ${v('pdbx_seq_db_accession_code', i).padEnd(9)} ${v('db_mon_id', i).padStart(3)} ${v('pdbx_seq_db_seq_num', i).padStart(5)}`;
    return `SEQADV ${id} ${residue} ${reference} ${v('details', i).toUpperCase().slice(0, 21)}`;
  });
}

/** MODRES: each modified residue of a polymer and the standard residue it stands for (pdbx_struct_mod_residue). */
export function modres(block: Block, idCode: string): string[] {
  // Columns 8-11 id, 13-15 residue, 17 chain, 19-22 number, 23 insertion code, 25-27 standard residue, 30-70 comment.
  return residueRows(block, 'pdbx_struct_mod_residue', 'auth_asym_id', (v, i, chain) => {
    const residue = `${(v('auth_comp_id', i) || v('label_comp_id', i)).padStart(3)} ${chain} ${v('auth_seq_id', i).padStart(4)}${v('PDB_ins_code', i) || ' '}`;
    return `MODRES ${idCode.slice(0, 4).padEnd(4)} ${residue} ${v('parent_comp_id', i).padStart(3)}  ${v('details', i).toUpperCase().slice(0, 41)}`;
  });
}

/** HETSYN: synonyms of each heterogen (chem_comp.pdbx_synonyms or pdbx_chem_comp_synonyms), in HET order. */
export function hetsyn(block: Block, hets: readonly string[]): string[] {
  const synonyms = new Map<string, string[]>();
  const add = (comp: string, text: string) => {
    if (!comp || !text) return;
    const list = synonyms.get(comp) ?? [];
    for (const s of text.split(';').map((t) => t.trim())) if (s && !list.includes(s)) list.push(s);
    synonyms.set(comp, list);
  };
  for (let i = 0; i < rows(block, 'pdbx_chem_comp_synonyms'); i++) add(value(block, 'pdbx_chem_comp_synonyms', 'comp_id', i), value(block, 'pdbx_chem_comp_synonyms', 'name', i));
  for (let i = 0; i < rows(block, 'chem_comp'); i++) add(value(block, 'chem_comp', 'id', i), value(block, 'chem_comp', 'pdbx_synonyms', i));
  const out: string[] = [];
  for (const het of hets) {
    const list = synonyms.get(het);
    if (!list?.length) continue;
    wrapWords(list.join('; ').toUpperCase(), 55).forEach((line, k) => out.push(pad80(`HETSYN  ${cont(k + 1)} ${het.padStart(3)} ${line}`)));
  }
  return out;
}

/** "C34 H32 Fe N4 O4" as FORMUL writes it ("C34 H32 FE N4 O4"); a trailing charge "-3" becomes "3-". */
export function legacyFormula(formula: string): string {
  return formula
    .toUpperCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => {
      const charge = /^([+-]?)(\d+)$/.exec(t);
      return charge ? `${charge[2]}${charge[1] || '+'}` : t;
    })
    .join(' ');
}

interface Component {
  number: number;
  count: number;
  water: boolean;
}

/** Component numbers as the format counts them: each struct_asym in order; an entity takes its first asym's. */
function entityNumbers(block: Block): Map<string, number> {
  const first = new Map<string, number>();
  for (let i = 0; i < rows(block, 'struct_asym'); i++) {
    const entity = value(block, 'struct_asym', 'entity_id', i);
    if (!first.has(entity)) first.set(entity, i + 1);
  }
  return first;
}

/** Each HET group's component number and how many times it occurs (residues of the scheme categories). */
function components(block: Block): Map<string, Component> {
  const numbers = entityNumbers(block);
  const found = new Map<string, Component>();
  const count = (comp: string, entity: string, polymer: boolean) => {
    if (!comp || (polymer && STANDARD.has(comp))) return;
    const c = found.get(comp);
    if (c) c.count++;
    else found.set(comp, { number: numbers.get(entity) ?? 0, count: 1, water: WATER.has(comp) });
  };
  const scan = (category: string, compField: string, polymer: boolean) => {
    for (let i = 0; i < rows(block, category); i++) count(value(block, category, compField, i), value(block, category, 'entity_id', i), polymer);
  };
  scan('pdbx_poly_seq_scheme', 'mon_id', true);
  scan('pdbx_branch_scheme', 'mon_id', false);
  scan('pdbx_nonpoly_scheme', 'mon_id', false);
  return found;
}

/** FORMUL: formula and count of each HET group, waters marked with '*', by component number. */
export function formul(block: Block): string[] {
  const formulas = new Map<string, string>();
  for (let i = 0; i < rows(block, 'chem_comp'); i++) formulas.set(value(block, 'chem_comp', 'id', i), value(block, 'chem_comp', 'formula', i));
  const out: string[] = [];
  const list = [...components(block)].filter(([het]) => het.length <= 3).sort((a, b) => a[1].number - b[1].number);
  for (const [het, c] of list) {
    const formula = legacyFormula(formulas.get(het) ?? '');
    if (!formula) continue;
    const text = c.count > 1 || c.water ? `${c.count}(${formula})` : formula;
    wrapWords(text, 51).forEach((line, k) => out.push(pad80(`FORMUL  ${String(c.number).padStart(2)}  ${het.padStart(3)} ${cont(k + 1)}${c.water && k === 0 ? '*' : ' '}${line}`)));
  }
  return out;
}

/** SITE: the residues of each struct_site, four a line, author naming. */
export function site(block: Block): string[] {
  const v = reader(block, 'struct_site_gen');
  const bySite = new Map<string, string[]>();
  for (let i = 0; i < rows(block, 'struct_site_gen'); i++) {
    const chain = v('auth_asym_id', i);
    if (chain.length > 1) continue;
    const list = bySite.get(v('site_id', i)) ?? [];
    list.push(`${(v('auth_comp_id', i) || v('label_comp_id', i)).padStart(3)} ${chain || ' '}${v('auth_seq_id', i).padStart(4)}${v('pdbx_auth_ins_code', i) || ' '}`);
    bySite.set(v('site_id', i), list);
  }
  const out: string[] = [];
  for (const [id, residues] of bySite) {
    if (id.length > 3) continue;
    for (let k = 0, n = 1; k < residues.length; k += 4, n++) {
      out.push(pad80(`SITE   ${String(n).padStart(3)} ${id.padStart(3)} ${String(residues.length).padStart(2)} ${residues.slice(k, k + 4).join(' ')}`));
    }
  }
  return out;
}

/** MTRIXn from struct_ncs_oper: column 60 holds 1 where the related copies' coordinates are in the file ("given"). */
export function mtrix(block: Block): string[] {
  const v = reader(block, 'struct_ncs_oper');
  const out: string[] = [];
  for (let i = 0; i < rows(block, 'struct_ncs_oper'); i++) {
    const serial = (v('id', i) || String(i + 1)).slice(-3).padStart(3);
    const given = v('code', i) === 'given' ? '1' : ' ';
    for (let r = 1; r <= 3; r++) {
      const m = (c: number) => fx(Number(v(`matrix[${r}][${c}]`, i)) || 0, 10, 6);
      out.push(pad80(`MTRIX${r} ${serial}${m(1)}${m(2)}${m(3)}     ${fx(Number(v(`vector[${r}]`, i)) || 0, 10, 5)}    ${given}`));
    }
  }
  return out;
}
