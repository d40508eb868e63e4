/**
 * REMARK 3 of an entry refined with PHENIX, in the layout wwPDB gives that program: the refinement
 * target, statistics per resolution bin, bulk solvent, maximum-likelihood error estimates, twinning,
 * deviations from ideal geometry with their counts, and each TLS group's origin and tensors. The
 * program's author list, which the archive writes from its own table, is not in the mmCIF: NULL.
 */
import { type Block, fx, pad80, reader, rows, value } from './legacy-cif.js';
import { B_VALUES, fill, otherRefinementRemarks } from './legacy-remark-templates.js';

const HEAD = [
  '',
  'REFINEMENT.',
  '  PROGRAM     : {program}',
  '  AUTHORS     : {authors}',
  '',
  '   REFINEMENT TARGET : {refine.pdbx_stereochemistry_target_values}',
  '',
  ' DATA USED IN REFINEMENT.',
  '  RESOLUTION RANGE HIGH (ANGSTROMS) : {refine.ls_d_res_high}',
  '  RESOLUTION RANGE LOW  (ANGSTROMS) : {refine.ls_d_res_low}',
  '  MIN(FOBS/SIGMA_FOBS)              : {refine.pdbx_ls_sigma_F}',
  '  COMPLETENESS FOR RANGE        (%) : {refine.ls_percent_reflns_obs}',
  '  NUMBER OF REFLECTIONS             : {refine.ls_number_reflns_obs}',
  '',
  ' FIT TO DATA USED IN REFINEMENT.',
  '  R VALUE     (WORKING + TEST SET) : {refine.ls_R_factor_obs}',
  '  R VALUE            (WORKING SET) : {refine.ls_R_factor_R_work}',
  '  FREE R VALUE                     : {refine.ls_R_factor_R_free}',
  '  FREE R VALUE TEST SET SIZE   (%) : {refine.ls_percent_reflns_R_free}',
  '  FREE R VALUE TEST SET COUNT      : {refine.ls_number_reflns_R_free}',
  '',
  ' FIT TO DATA USED IN REFINEMENT (IN BINS).',
  '  BIN  RESOLUTION RANGE  COMPL.    NWORK NFREE   RWORK  RFREE',
];

const MIDDLE = [
  '',
  ' BULK SOLVENT MODELLING.',
  '  METHOD USED        : {refine.solvent_model_details}',
  '  SOLVENT RADIUS     : {refine.pdbx_solvent_vdw_probe_radii}',
  '  SHRINKAGE RADIUS   : {refine.pdbx_solvent_shrinkage_radii}',
  '  K_SOL              : {refine.solvent_model_param_ksol}',
  '  B_SOL              : {refine.solvent_model_param_bsol}',
  '',
  ' ERROR ESTIMATES.',
  '  COORDINATE ERROR (MAXIMUM-LIKELIHOOD BASED)     : {refine.overall_SU_ML}',
  '  PHASE ERROR (DEGREES, MAXIMUM-LIKELIHOOD BASED) : {refine.pdbx_overall_phase_error}',
  '',
  ...B_VALUES,
  '',
  ' TWINNING INFORMATION.',
  '  FRACTION: {pdbx_reflns_twin.fraction}',
  '  OPERATOR: {pdbx_reflns_twin.operator}',
  '',
  ' DEVIATIONS FROM IDEAL VALUES.',
  '                RMSD          COUNT',
];

/** The geometry rows of the deviations table and the refine_ls_restr type (PHENIX's f_ prefix dropped) of each. */
const DEVIATIONS: readonly (readonly [string, string])[] = [
  ['BOND', 'bond_d'],
  ['ANGLE', 'angle_d'],
  ['CHIRALITY', 'chiral_restr'],
  ['PLANARITY', 'plane_restr'],
  ['DIHEDRAL', 'dihedral_angle_d'],
];

const line = (text = '') => pad80(text ? `REMARK   3 ${text}` : 'REMARK   3');
const num = (v: string, width: number, digits: number) => (v && Number.isFinite(Number(v)) ? fx(Number(v), width, digits) : 'NULL'.padStart(width));

/** Whether wwPDB would give the entry PHENIX's layout: its refinement program is PHENIX. */
export function refinedWithPhenix(block: Block): boolean {
  for (let i = 0; i < rows(block, 'software'); i++) {
    if (value(block, 'software', 'classification', i).toLowerCase() === 'refinement' && /^PHENIX/i.test(value(block, 'software', 'name', i))) return true;
  }
  return false;
}

/** Bins from low to high resolution: number, range, completeness as a fraction, reflections and R values. */
function bins(block: Block): string[] {
  const s = reader(block, 'refine_ls_shell');
  const order = Array.from({ length: rows(block, 'refine_ls_shell') }, (_, i) => i).sort((a, b) => Number(s('d_res_low', b)) - Number(s('d_res_low', a)));
  return order.map((i, k) => {
    const completeness = s('percent_reflns_obs', i) ? String(Number(s('percent_reflns_obs', i)) / 100) : '';
    return line(
      `${String(k + 1).padStart(5)}${num(s('d_res_low', i), 8, 4)} - ${num(s('d_res_high', i), 7, 4)}${num(completeness, 8, 2)}${s('number_reflns_R_work', i).padStart(9)}` +
        `${s('number_reflns_R_free', i).padStart(6)}${num(s('R_factor_R_work', i), 8, 4)}${num(s('R_factor_R_free', i), 7, 4)}`,
    );
  });
}

/** The deviations table: RMS deviation and count of each restraint type the mmCIF lists. */
function deviations(block: Block): string[] {
  const r = reader(block, 'refine_ls_restr');
  const out: string[] = [];
  for (const [label, type] of DEVIATIONS) {
    for (let i = 0; i < rows(block, 'refine_ls_restr'); i++) {
      if (r('type', i).replace(/^[a-z]_/, '') !== type) continue;
      out.push(line(`  ${label.padEnd(10)}:${num(r('dev_ideal', i), 7, 3)}${r('number', i).padStart(15)}`));
    }
  }
  return out;
}

/** Each TLS group: its selections, origin, and the T, L and S tensors two or three elements a line. */
function tls(block: Block): string[] {
  const t = reader(block, 'pdbx_refine_tls');
  const g = reader(block, 'pdbx_refine_tls_group');
  const n = rows(block, 'pdbx_refine_tls');
  const out = [line(), line(' TLS DETAILS'), line(`  NUMBER OF TLS GROUPS : ${n || 'NULL'}`)];
  const element = (tensor: string, ij: string, i: number) => `${tensor}${ij}:${num(t(`${tensor}[${ij[0]}][${ij[1]}]`, i), 9, 4)}`;
  for (let i = 0; i < n; i++) {
    const id = t('id', i);
    out.push(line(`  TLS GROUP : ${id}`));
    for (let k = 0; k < rows(block, 'pdbx_refine_tls_group'); k++) {
      if (g('refine_tls_id', k) === id) out.push(line(`   SELECTION: ${g('selection_details', k).toUpperCase() || 'NULL'}`));
    }
    out.push(line(`   ORIGIN FOR THE GROUP (A):${['x', 'y', 'z'].map((c) => num(t(`origin_${c}`, i), 9, 4)).join('')}`));
    for (const [tensor, pairs] of [
      ['T', ['11 22', '33 12', '13 23']],
      ['L', ['11 22', '33 12', '13 23']],
      ['S', ['11 12 13', '21 22 23', '31 32 33']],
    ] as const) {
      out.push(line(`   ${tensor} TENSOR`));
      for (const p of pairs)
        out.push(
          line(
            `     ${p
              .split(' ')
              .map((ij) => element(tensor, ij, i))
              .join(' ')}`,
          ),
        );
    }
  }
  return out;
}

/** NCS: the number of NCS groups refined (the per-group lines are not written). */
function ncs(block: Block): string[] {
  const groups = new Set<string>();
  for (let i = 0; i < rows(block, 'refine_ls_restr_ncs'); i++) groups.add(value(block, 'refine_ls_restr_ncs', 'pdbx_ens_id', i) || String(i));
  return [line(), line(' NCS DETAILS'), line(`  NUMBER OF NCS GROUPS : ${groups.size || 'NULL'}`), line()];
}

/** REMARK 3 in PHENIX's layout. */
export function remark3Phenix(block: Block): string[] {
  return [...fill(block, 3, HEAD), ...bins(block), ...fill(block, 3, MIDDLE), ...deviations(block), ...tls(block), ...ncs(block), ...otherRefinementRemarks(block)];
}
