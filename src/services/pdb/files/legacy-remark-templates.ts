/**
 * REMARK 3 (refinement) and REMARK 200 (X-ray experiment) in the layout of wwPDB's generic templates:
 * every line is written, NULL where the mmCIF has no value. The program-specific layouts wwPDB uses
 * for REFMAC, PHENIX, BUSTER or SHELX entries add lines (TLS groups, per-bin tables) that this one
 * leaves out; the generic lines come from the same items.
 */
import { type Block, legacyDate, pad80, rows, value, wrapWords } from './legacy-cif.js';

/** The B values section, common to the generic and the program layouts. */
export const B_VALUES = [
  ' B VALUES.',
  '  FROM WILSON PLOT           (A**2) : {reflns.B_iso_Wilson_estimate}',
  '  MEAN B VALUE      (OVERALL, A**2) : {refine.B_iso_mean}',
  '  OVERALL ANISOTROPIC B VALUE.',
  '   B11 (A**2) : {refine.aniso_B[1][1]}',
  '   B22 (A**2) : {refine.aniso_B[2][2]}',
  '   B33 (A**2) : {refine.aniso_B[3][3]}',
  '   B12 (A**2) : {refine.aniso_B[1][2]}',
  '   B13 (A**2) : {refine.aniso_B[1][3]}',
  '   B23 (A**2) : {refine.aniso_B[2][3]}',
];

const REMARK3 = [
  '',
  'REFINEMENT.',
  '  PROGRAM     : {program}',
  '  AUTHORS     : {authors}',
  '',
  ' DATA USED IN REFINEMENT.',
  '  RESOLUTION RANGE HIGH (ANGSTROMS) : {refine.ls_d_res_high}',
  '  RESOLUTION RANGE LOW  (ANGSTROMS) : {refine.ls_d_res_low}',
  '  DATA CUTOFF            (SIGMA(F)) : {refine.pdbx_ls_sigma_F}',
  '  DATA CUTOFF HIGH         (ABS(F)) : {refine.pdbx_data_cutoff_high_absF}',
  '  DATA CUTOFF LOW          (ABS(F)) : {refine.pdbx_data_cutoff_low_absF}',
  '  COMPLETENESS (WORKING+TEST)   (%) : {refine.ls_percent_reflns_obs}',
  '  NUMBER OF REFLECTIONS             : {refine.ls_number_reflns_obs}',
  '',
  ' FIT TO DATA USED IN REFINEMENT.',
  '  CROSS-VALIDATION METHOD          : {refine.pdbx_ls_cross_valid_method}',
  '  FREE R VALUE TEST SET SELECTION  : {refine.pdbx_R_Free_selection_details}',
  '  R VALUE            (WORKING SET) : {refine.ls_R_factor_R_work|r}',
  '  FREE R VALUE                     : {refine.ls_R_factor_R_free|r}',
  '  FREE R VALUE TEST SET SIZE   (%) : {refine.ls_percent_reflns_R_free}',
  '  FREE R VALUE TEST SET COUNT      : {refine.ls_number_reflns_R_free}',
  '  ESTIMATED ERROR OF FREE R VALUE  : {refine.ls_R_factor_R_free_error|r}',
  '',
  ' FIT IN THE HIGHEST RESOLUTION BIN.',
  '  TOTAL NUMBER OF BINS USED           : {shell.pdbx_total_number_of_bins_used}',
  '  BIN RESOLUTION RANGE HIGH       (A) : {shell.d_res_high}',
  '  BIN RESOLUTION RANGE LOW        (A) : {shell.d_res_low}',
  '  BIN COMPLETENESS (WORKING+TEST) (%) : {shell.percent_reflns_obs}',
  '  REFLECTIONS IN BIN    (WORKING SET) : {shell.number_reflns_R_work}',
  '  BIN R VALUE           (WORKING SET) : {shell.R_factor_R_work|r}',
  '  BIN FREE R VALUE                    : {shell.R_factor_R_free|r}',
  '  BIN FREE R VALUE TEST SET SIZE  (%) : {shell.percent_reflns_R_free}',
  '  BIN FREE R VALUE TEST SET COUNT     : {shell.number_reflns_R_free}',
  '  ESTIMATED ERROR OF BIN FREE R VALUE : {shell.R_factor_R_free_error|r}',
  '',
  ' NUMBER OF NON-HYDROGEN ATOMS USED IN REFINEMENT.',
  '  PROTEIN ATOMS            : {refine_hist.pdbx_number_atoms_protein}',
  '  NUCLEIC ACID ATOMS       : {refine_hist.pdbx_number_atoms_nucleic_acid}',
  '  HETEROGEN ATOMS          : {refine_hist.pdbx_number_atoms_ligand}',
  '  SOLVENT ATOMS            : {refine_hist.number_atoms_solvent}',
  '',
  ...B_VALUES,
  '',
  ' ESTIMATED COORDINATE ERROR.',
  '  ESD FROM LUZZATI PLOT        (A) : {refine_analyze.Luzzati_coordinate_error_obs}',
  '  ESD FROM SIGMAA              (A) : {refine_analyze.Luzzati_sigma_a_obs}',
  '  LOW RESOLUTION CUTOFF        (A) : {refine_analyze.Luzzati_d_res_low_obs}',
  '',
  ' CROSS-VALIDATED ESTIMATED COORDINATE ERROR.',
  '  ESD FROM C-V LUZZATI PLOT    (A) : {refine_analyze.Luzzati_coordinate_error_free}',
  '  ESD FROM C-V SIGMAA          (A) : {refine_analyze.Luzzati_sigma_a_free}',
  '',
  ' RMS DEVIATIONS FROM IDEAL VALUES.',
  '  BOND LENGTHS                 (A) : {restr.bond_d}',
  '  BOND ANGLES            (DEGREES) : {restr.angle_deg}',
  '  DIHEDRAL ANGLES        (DEGREES) : {restr.dihedral_angle_d}',
  '  IMPROPER ANGLES        (DEGREES) : {restr.improper_angle_d}',
  '',
  ' ISOTROPIC THERMAL MODEL : {refine.pdbx_isotropic_thermal_model}',
  '',
  ' ISOTROPIC THERMAL FACTOR RESTRAINTS.    RMS    SIGMA',
  '  MAIN-CHAIN BOND              (A**2) : {restr.mcbond_it|5} ; {target.mcbond_it}',
  '  MAIN-CHAIN ANGLE             (A**2) : {restr.mcangle_it|5} ; {target.mcangle_it}',
  '  SIDE-CHAIN BOND              (A**2) : {restr.scbond_it|5} ; {target.scbond_it}',
  '  SIDE-CHAIN ANGLE             (A**2) : {restr.scangle_it|5} ; {target.scangle_it}',
  '',
  ' NCS MODEL : {refine_ls_restr_ncs.ncs_model_details}',
  '',
  ' NCS RESTRAINTS.                         RMS   SIGMA/WEIGHT',
  '  GROUP  1  POSITIONAL            (A) : {refine_ls_restr_ncs.rms_dev_position|5} ; {refine_ls_restr_ncs.weight_position}',
  '  GROUP  1  B-FACTOR           (A**2) : {refine_ls_restr_ncs.rms_dev_B_iso|5} ; {refine_ls_restr_ncs.weight_B_iso}',
];

const REMARK200 = [
  '',
  'EXPERIMENTAL DETAILS',
  ' EXPERIMENT TYPE                : {exptl.method}',
  ' DATE OF DATA COLLECTION        : {diffrn_detector.pdbx_collection_date|d}',
  ' TEMPERATURE           (KELVIN) : {diffrn.ambient_temp}',
  ' PH                             : {exptl_crystal_grow.pH}',
  ' NUMBER OF CRYSTALS USED        : {exptl.crystals_number}',
  '',
  ' SYNCHROTRON              (Y/N) : {synchrotron}',
  ' RADIATION SOURCE               : {radiation_source}',
  ' BEAMLINE                       : {diffrn_source.pdbx_synchrotron_beamline}',
  ' X-RAY GENERATOR MODEL          : {generator}',
  ' MONOCHROMATIC OR LAUE    (M/L) : {diffrn_radiation.pdbx_monochromatic_or_laue_m_l}',
  ' WAVELENGTH OR RANGE        (A) : {wavelength}',
  ' MONOCHROMATOR                  : {diffrn_radiation.monochromator}',
  ' OPTICS                         : {diffrn_detector.details}',
  '',
  ' DETECTOR TYPE                  : {diffrn_detector.detector}',
  ' DETECTOR MANUFACTURER          : {diffrn_detector.type}',
  ' INTENSITY-INTEGRATION SOFTWARE : {software.data reduction}',
  ' DATA SCALING SOFTWARE          : {software.data scaling}',
  '',
  ' NUMBER OF UNIQUE REFLECTIONS   : {reflns.number_obs}',
  ' RESOLUTION RANGE HIGH      (A) : {reflns.d_resolution_high}',
  ' RESOLUTION RANGE LOW       (A) : {reflns.d_resolution_low}',
  ' REJECTION CRITERIA  (SIGMA(I)) : {reflns.observed_criterion_sigma_I}',
  '',
  'OVERALL.',
  ' COMPLETENESS FOR RANGE     (%) : {reflns.percent_possible_obs}',
  ' DATA REDUNDANCY                : {reflns.pdbx_redundancy}',
  ' R MERGE                    (I) : {reflns.pdbx_Rmerge_I_obs|r}',
  ' R SYM                      (I) : {reflns.pdbx_Rsym_value|r}',
  ' <I/SIGMA(I)> FOR THE DATA SET  : {reflns.pdbx_netI_over_sigmaI}',
  '',
  'IN THE HIGHEST RESOLUTION SHELL.',
  ' HIGHEST RESOLUTION SHELL, RANGE HIGH (A) : {reflns_shell.d_res_high}',
  ' HIGHEST RESOLUTION SHELL, RANGE LOW  (A) : {reflns_shell.d_res_low}',
  ' COMPLETENESS FOR SHELL     (%) : {reflns_shell.percent_possible_all}',
  ' DATA REDUNDANCY IN SHELL       : {reflns_shell.pdbx_redundancy}',
  ' R MERGE FOR SHELL          (I) : {reflns_shell.Rmerge_I_obs|r}',
  ' R SYM FOR SHELL            (I) : {reflns_shell.pdbx_Rsym_value|r}',
  ' <I/SIGMA(I)> FOR SHELL         : {reflns_shell.meanI_over_sigI_obs}',
  '',
  'DIFFRACTION PROTOCOL: {diffrn_radiation.pdbx_diffrn_protocol}',
  'METHOD USED TO DETERMINE THE STRUCTURE: {refine.pdbx_method_to_determine_struct}',
  'SOFTWARE USED: {software.phasing}',
  'STARTING MODEL: {refine.pdbx_starting_model}',
  '',
  'REMARK: NULL',
];

/** An R value as wwPDB prints it: at most three decimals when the rest are zeros ("0.1350000" -> "0.135"). */
export function rValue(v: string): string {
  const m = /^(-?\d*\.\d{3})(\d*)$/.exec(v);
  return m && /^0*$/.test(m[2] as string) ? (m[1] as string) : v;
}

/** Names (and versions) of the software of one classification, comma-separated. */
function software(block: Block, classification: string): string {
  const out: string[] = [];
  for (let i = 0; i < rows(block, 'software'); i++) {
    if (value(block, 'software', 'classification', i).toLowerCase() !== classification) continue;
    out.push([value(block, 'software', 'name', i), value(block, 'software', 'version', i)].filter(Boolean).join(' '));
  }
  return out.join(', ');
}

/** The refine_ls_restr row of a restraint type, whatever the program's prefix (c_ CNS, x_ X-PLOR, r_ REFMAC). */
function restraint(block: Block, type: string, field: string): string {
  for (let i = 0; i < rows(block, 'refine_ls_restr'); i++) {
    if (value(block, 'refine_ls_restr', 'type', i).replace(/^[a-z]_/, '') === type) return value(block, 'refine_ls_restr', field, i);
  }
  return '';
}

/** The highest-resolution refine_ls_shell row. */
function highestShell(block: Block): number {
  let best = -1;
  let high = Infinity;
  for (let i = 0; i < rows(block, 'refine_ls_shell'); i++) {
    const d = Number(value(block, 'refine_ls_shell', 'd_res_high', i));
    if (Number.isFinite(d) && d < high) [best, high] = [i, d];
  }
  return best;
}

/** The computing item (older mmCIFs name each task's program there) of a software classification. */
const COMPUTING: Record<string, string> = {
  'data reduction': 'pdbx_data_reduction_ii',
  'data scaling': 'pdbx_data_reduction_ds',
  phasing: 'structure_solution',
};

/** The value a template key names. */
function lookup(block: Block, key: string): string {
  const dot = key.indexOf('.');
  const [scope, field] = dot < 0 ? [key, ''] : [key.slice(0, dot), key.slice(dot + 1)];
  const source = value(block, 'diffrn_source', 'source').toUpperCase();
  switch (scope) {
    case 'program':
      return software(block, 'refinement');
    case 'authors':
      return '';
    case 'synchrotron':
      return source ? (source === 'SYNCHROTRON' ? 'Y' : 'N') : '';
    case 'radiation_source':
      return source === 'SYNCHROTRON' ? value(block, 'diffrn_source', 'pdbx_synchrotron_site') || source : source;
    case 'wavelength':
      return value(block, 'diffrn_source', 'pdbx_wavelength_list') || value(block, 'diffrn_source', 'pdbx_wavelength');
    case 'generator':
      // A home source's model; at a synchrotron the item names the beamline, which BEAMLINE and RADIATION SOURCE give.
      return source === 'SYNCHROTRON' ? '' : value(block, 'diffrn_source', 'type');
    case 'software':
      return value(block, 'computing', COMPUTING[field] ?? '') || software(block, field);
    case 'restr':
      return restraint(block, field, 'dev_ideal');
    case 'target':
      return restraint(block, field, 'dev_ideal_target');
    case 'shell': {
      const row = highestShell(block);
      return row < 0 ? '' : value(block, 'refine_ls_shell', field, row);
    }
    default:
      return value(block, scope, field);
  }
}

/** Template lines filled in: {key} or {key|r} (R value), {key|d} (date), {key|5} (padded to five columns). */
export function fill(block: Block, remark: number, template: readonly string[]): string[] {
  const head = `REMARK ${String(remark).padStart(3)}`;
  return template.flatMap((t) => {
    if (!t) return [pad80(head)];
    const text = t.replace(/\{([^}|]+)(?:\|(\w))?\}/g, (_, key: string, how?: string) => {
      let v = lookup(block, key).replace(/\s+/g, ' ').toUpperCase();
      if (v && how === 'r') v = rValue(v);
      if (v && how === 'd') v = /^\d{4}-\d{2}$/.test(v) ? legacyDate(`${v}-01`).slice(3) : legacyDate(v).trim() || v;
      v ||= 'NULL';
      return how === '5' ? v.padEnd(5) : v;
    });
    if (text.length <= 68) return [pad80(`${head} ${text}`)];
    // A value too long for the line continues on the next ones (text to column 79), not cut at column 80;
    // the label keeps its spacing.
    const colon = text.indexOf(': ') + 2;
    const label = text.slice(0, colon);
    const [first = '', ...rest] = wrapWords(text.slice(colon), 68 - label.length);
    return [`${label}${first}`, ...wrapWords(rest.join(' '), 67).map((l) => ` ${l}`)].map((l) => pad80(`${head} ${l}`));
  });
}

const DIFFRACTION = /DIFFRACTION/;

/** REMARK 3 for a diffraction entry with a refine row; its details as OTHER REFINEMENT REMARKS. */
export function remark3(block: Block): string[] {
  if (!rows(block, 'refine') || !DIFFRACTION.test(value(block, 'exptl', 'method').toUpperCase())) return [];
  return [...fill(block, 3, REMARK3), ...xplorFiles(block), ...otherRefinementRemarks(block)];
}

/** The X-PLOR/CNS parameter files, then the topology files (pdbx_xplor_file), numbered; NULL for none. */
function xplorFiles(block: Block): string[] {
  const n = Math.max(1, rows(block, 'pdbx_xplor_file'));
  const list = (label: string, field: string) =>
    Array.from({ length: n }, (_, i) =>
      pad80(`REMARK   3  ${label} ${String(i + 1).padStart(2)}${label.startsWith('P') ? '' : ' '}  : ${value(block, 'pdbx_xplor_file', field, i).toUpperCase() || 'NULL'}`),
    );
  return [pad80('REMARK   3'), ...list('PARAMETER FILE', 'param_file'), ...list('TOPOLOGY FILE', 'topol_file'), pad80('REMARK   3')];
}

const OTHER = 'REMARK   3  OTHER REFINEMENT REMARKS:';

/**
 * The refinement's details, which close REMARK 3: their lines kept as the mmCIF breaks them (words
 * wrapped within 67 columns), the first after the label when it fits there by column 79.
 */
export function otherRefinementRemarks(block: Block): string[] {
  const details = value(block, 'refine', 'details').toUpperCase();
  if (!details) return [pad80(`${OTHER} NULL`)];
  const lines = details.split('\n').flatMap((source) => wrapWords(source, 67));
  const first = lines[0] ?? '';
  const out = OTHER.length + 1 + first.length <= 79 ? [pad80(`${OTHER} ${lines.shift() ?? ''}`)] : [pad80(OTHER)];
  for (const line of lines) out.push(pad80(`REMARK   3  ${line}`));
  return out;
}

/** REMARK 200 for an X-ray entry. */
export function remark200(block: Block): string[] {
  return value(block, 'exptl', 'method').toUpperCase() === 'X-RAY DIFFRACTION' ? fill(block, 200, REMARK200) : [];
}
