/**
 * SHEET (struct_sheet, struct_sheet_order, struct_sheet_range, pdbx_struct_sheet_hbond) and CISPEP
 * (struct_mon_prot_cis) in the wwPDB format's columns, author numbering. Strands or residues on
 * chains with ids longer than one character do not fit the format and are left out, as HELIX does.
 */
import { atomField, type Block, multiModel, pad80, reader, rows } from './legacy-cif.js';

type Read = ReturnType<typeof reader>;

/** Residue name (3), chain (after a blank), number (4) and insertion code: the format's usual residue columns. */
const residue = (comp: string, chain: string, seq: string, ins: string) => `${comp.padStart(3)} ${chain || ' '}${seq.padStart(4)}${ins || ' '}`;

/**
 * The strand a strand is registered against and its sense (1 parallel, -1 anti-parallel): the
 * struct_sheet_order pair with the nearest earlier strand of the sheet, usually the one listed just before.
 */
function pairing(block: Block, sheet: string, strand: string, earlier: readonly string[]): { previous: string; sense: number } {
  const o = reader(block, 'struct_sheet_order');
  for (const previous of [...earlier].reverse()) {
    for (let i = 0; i < rows(block, 'struct_sheet_order'); i++) {
      const pair = [o('range_id_1', i), o('range_id_2', i)];
      if (o('sheet_id', i) === sheet && pair.includes(strand) && pair.includes(previous)) return { previous, sense: o('sense', i).toLowerCase().startsWith('anti') ? -1 : 1 };
    }
  }
  return { previous: earlier.at(-1) ?? '', sense: 0 };
}

/** Columns 42-70: the hydrogen-bonded atoms that register a strand with the previous one (range 2 is the current strand). */
function registration(block: Block, sheet: string, strand: string, previous: string): string {
  const h = reader(block, 'pdbx_struct_sheet_hbond');
  for (let i = 0; i < rows(block, 'pdbx_struct_sheet_hbond'); i++) {
    if (h('sheet_id', i) !== sheet) continue;
    const forward = h('range_id_1', i) === previous && h('range_id_2', i) === strand;
    const backward = h('range_id_1', i) === strand && h('range_id_2', i) === previous;
    if (!forward && !backward) continue;
    const [cur, prev] = forward ? [2, 1] : [1, 2];
    const atom = (n: number) => {
      const comp = h(`range_${n}_auth_comp_id`, i) || h(`range_${n}_label_comp_id`, i);
      const name = atomField(h(`range_${n}_auth_atom_id`, i) || h(`range_${n}_label_atom_id`, i), comp, block);
      return `${name}${residue(comp, h(`range_${n}_auth_asym_id`, i), h(`range_${n}_auth_seq_id`, i), h(`range_${n}_PDB_ins_code`, i))}`;
    };
    if ([cur, prev].some((n) => h(`range_${n}_auth_asym_id`, i).length > 1)) return '';
    return ` ${atom(cur)} ${atom(prev)}`;
  }
  return '';
}

/** One strand's SHEET line; `earlier` are the ids of the strands before it in the sheet. */
function strandLine(block: Block, r: Read, i: number, count: number, earlier: readonly string[]): string {
  const sheet = r('sheet_id', i);
  const id = r('id', i);
  const begin = residue(r('beg_auth_comp_id', i) || r('beg_label_comp_id', i), r('beg_auth_asym_id', i), r('beg_auth_seq_id', i), r('pdbx_beg_PDB_ins_code', i));
  const end = residue(r('end_auth_comp_id', i) || r('end_label_comp_id', i), r('end_auth_asym_id', i), r('end_auth_seq_id', i), r('pdbx_end_PDB_ins_code', i));
  // Columns 8-10 strand, 12-14 sheet id, 15-16 strand count, 18-27 first residue, 29-38 last, 39-40 sense.
  const head = `SHEET  ${String(earlier.length + 1).padStart(3)} ${sheet.slice(0, 3).padStart(3)}${String(count).padStart(2)} ${begin} ${end}`;
  if (!earlier.length) return pad80(`${head} 0`);
  const { previous, sense } = pairing(block, sheet, id, earlier);
  return pad80(`${head}${String(sense).padStart(2)}${registration(block, sheet, id, previous)}`);
}

/** SHEET: each sheet's strands in struct_sheet_range order, numbered from 1 within the sheet. */
export function sheet(block: Block): string[] {
  const r = reader(block, 'struct_sheet_range');
  const bySheet = new Map<string, number[]>();
  for (let i = 0; i < rows(block, 'struct_sheet_range'); i++) {
    if (r('beg_auth_asym_id', i).length > 1 || r('end_auth_asym_id', i).length > 1) continue;
    bySheet.set(r('sheet_id', i), [...(bySheet.get(r('sheet_id', i)) ?? []), i]);
  }
  const out: string[] = [];
  for (const list of bySheet.values()) {
    list.forEach((i, k) =>
      out.push(
        strandLine(
          block,
          r,
          i,
          list.length,
          list.slice(0, k).map((j) => r('id', j)),
        ),
      ),
    );
  }
  return out;
}

/** CISPEP: each cis peptide bond, model 0 for a single-model entry as wwPDB writes it, the omega angle to 2 decimals. */
export function cispep(block: Block): string[] {
  const c = reader(block, 'struct_mon_prot_cis');
  const multi = multiModel(block);
  const out: string[] = [];
  for (let i = 0; i < rows(block, 'struct_mon_prot_cis'); i++) {
    const chain1 = c('auth_asym_id', i);
    const chain2 = c('pdbx_auth_asym_id_2', i);
    if (chain1.length > 1 || chain2.length > 1) continue;
    // Columns 8-10 serial, 12-14 and 26-28 residue names (left-justified), 16/30 chains, 18-21/32-35 numbers, 22/36 codes.
    const res = (comp: string, chain: string, seq: string, ins: string) => `${comp.padEnd(3)} ${chain || ' '} ${seq.padStart(4)}${ins || ' '}`;
    const first = res(c('auth_comp_id', i) || c('label_comp_id', i), chain1, c('auth_seq_id', i), c('pdbx_PDB_ins_code', i));
    const second = res(c('pdbx_auth_comp_id_2', i) || c('pdbx_label_comp_id_2', i), chain2, c('pdbx_auth_seq_id_2', i), c('pdbx_PDB_ins_code_2', i));
    const model = multi ? c('pdbx_PDB_model_num', i) || '1' : '0';
    const angle = Number(c('pdbx_omega_angle', i));
    // Columns 44-46 model, 54-59 angle.
    const measure = c('pdbx_omega_angle', i) && Number.isFinite(angle) ? angle.toFixed(2).padStart(6) : '';
    out.push(pad80(`CISPEP ${String(out.length + 1).padStart(3)} ${first}   ${second}       ${model.padStart(3)}       ${measure}`));
  }
  return out;
}
