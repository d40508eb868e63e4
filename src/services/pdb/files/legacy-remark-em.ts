/**
 * The REMARKs of an electron microscopy entry: REMARK 3 in its EM form (map-model fitting and the
 * reconstruction's statistics), 245 (the sample and the data acquisition, from the em_* categories)
 * and 247 (the note on meaningless CRYST1 and SCALE records). Labels, columns and wrapping follow
 * the archive's file of a single-particle entry (7DDO, format V. 3.30): a missing value is NULL,
 * several rows of a category are joined with "; ", a long value continues under its first
 * character and ends by column 77. Each label is filled from the em_* item of the same meaning;
 * SPECIMEN TYPE, SOFTWARE PACKAGES and RECONSTRUCTION SCHEMA have no such item and are NULL.
 */
import { type Block, joinedRows as joined, remarkLine as line, value, wrapWords } from './legacy-cif.js';

const LAST_COLUMN = 77;

/** Whether the entry's method is electron microscopy (not electron crystallography: REMARK 240). */
export function isEm(block: Block): boolean {
  return value(block, 'exptl', 'method').toUpperCase() === 'ELECTRON MICROSCOPY';
}

/** A number with `digits` decimals as the archive writes it (PH 8.00), or the text when it is not one. */
function decimals(text: string, digits: number, scale = 1): string {
  const n = Number(text);
  return text === '' || !Number.isFinite(n) ? text : (n * scale).toFixed(digits);
}

/** `label: value` lines of remark `n`, the label padded to `width`, the value wrapped to end by column 77. */
function labelled(n: number, width: number, label: string, v: string): string[] {
  const head = `${label.padEnd(width)}: `;
  // "REMARK nnn " is 11 columns.
  const room = LAST_COLUMN - 11 - head.length;
  return wrapWords(v || 'NULL', room).map((p, i) => line(n, `${i ? ' '.repeat(head.length) : head}${p}`));
}

/** Labelled lines of one paragraph, its labels padded alike. */
const fields = (n: number, width: number, list: readonly (readonly [string, string])[]) => list.flatMap(([label, v]) => labelled(n, width, label, v));

/** REMARK 3 of an EM entry: the map-model fitting and the reconstruction's statistics. */
export function remark3Em(block: Block): string[] {
  if (!isEm(block)) return [];
  const fit = (field: string) => joined(block, 'em_3d_fitting', field);
  const rec = (field: string) => joined(block, 'em_3d_reconstruction', field);
  return [
    line(3),
    line(3, 'REFINEMENT.'),
    ...fields(3, 25, [
      ['  SOFTWARE PACKAGES', ''],
      ['  RECONSTRUCTION SCHEMA', ''],
    ]),
    line(3),
    line(3, 'EM MAP-MODEL FITTING AND REFINEMENT'),
    ...fields(3, 31, [
      ['  PDB ENTRY', joined(block, 'em_3d_fitting_list', 'pdb_entry_id')],
      ['  REFINEMENT SPACE', fit('ref_space')],
      ['  REFINEMENT PROTOCOL', fit('ref_protocol')],
      ['  REFINEMENT TARGET', fit('target_criteria')],
      ['  OVERALL ANISOTROPIC B VALUE', fit('overall_b_value')],
    ]),
    line(3),
    ...labelled(3, 18, 'FITTING PROCEDURE', fit('details')),
    line(3),
    line(3, 'EM IMAGE RECONSTRUCTION STATISTICS'),
    ...fields(3, 36, [
      ['  NOMINAL PIXEL SIZE (ANGSTROMS)', rec('nominal_pixel_size')],
      ['  ACTUAL PIXEL SIZE  (ANGSTROMS)', rec('actual_pixel_size')],
      ['  EFFECTIVE RESOLUTION (ANGSTROMS)', decimals(value(block, 'em_3d_reconstruction', 'resolution'), 3)],
      ['  NUMBER OF PARTICLES', rec('num_particles')],
      ['  CTF CORRECTION METHOD', joined(block, 'em_ctf_correction', 'type')],
    ]),
    line(3),
    ...labelled(3, 43, 'EM RECONSTRUCTION MAGNIFICATION CALIBRATION', rec('magnification_calibration')),
    line(3),
    ...labelled(3, 13, 'OTHER DETAILS', rec('details')),
  ];
}

/** REMARK 245: the sample and how its images were taken. */
export function remark245(block: Block): string[] {
  if (!isEm(block)) return [];
  const imaging = (field: string) => joined(block, 'em_imaging', field);
  const recording = (field: string) => joined(block, 'em_image_recording', field);
  return [
    line(245),
    line(245, 'EXPERIMENTAL DETAILS'),
    ...fields(245, 33, [
      ['  RECONSTRUCTION METHOD', joined(block, 'em_experiment', 'reconstruction_method')],
      ['  SPECIMEN TYPE', ''],
    ]),
    line(245),
    line(245, 'ELECTRON MICROSCOPE SAMPLE'),
    ...fields(245, 33, [
      ['  SAMPLE TYPE', joined(block, 'em_experiment', 'aggregation_state')],
      ['  PARTICLE TYPE', joined(block, 'em_3d_reconstruction', 'symmetry_type')],
      ['  NAME OF SAMPLE', joined(block, 'em_entity_assembly', 'name')],
      ['  SAMPLE CONCENTRATION (MG ML-1)', decimals(value(block, 'em_specimen', 'concentration'), 2)],
      ['  SAMPLE SUPPORT DETAILS', joined(block, 'em_sample_support', 'details')],
      ['  SAMPLE VITRIFICATION DETAILS', joined(block, 'em_vitrification', 'details')],
      ['  SAMPLE BUFFER', joined(block, 'em_buffer', 'name')],
      ['  PH', decimals(value(block, 'em_buffer', 'pH'), 2)],
      ['  SAMPLE DETAILS', joined(block, 'em_specimen', 'details')],
    ]),
    line(245),
    line(245, 'DATA ACQUISITION'),
    ...fields(245, 36, [
      ['  DATE OF EXPERIMENT', imaging('date')],
      ['  NUMBER OF MICROGRAPHS-IMAGES', recording('num_real_images')],
      ['  TEMPERATURE (KELVIN)', imaging('temperature')],
      ['  MICROSCOPE MODEL', imaging('microscope_model')],
      ['  DETECTOR TYPE', recording('film_or_detector_model')],
      ['  MINIMUM DEFOCUS (NM)', imaging('nominal_defocus_min')],
      ['  MAXIMUM DEFOCUS (NM)', imaging('nominal_defocus_max')],
      ['  MINIMUM TILT ANGLE (DEGREES)', imaging('tilt_angle_min')],
      ['  MAXIMUM TILT ANGLE (DEGREES)', imaging('tilt_angle_max')],
      ['  NOMINAL CS', imaging('nominal_cs')],
      ['  IMAGING MODE', imaging('mode')],
      // The mmCIF gives electrons per square angstrom; the remark per square nanometre (x 100).
      ['  ELECTRON DOSE (ELECTRONS NM**-2)', decimals(value(block, 'em_image_recording', 'avg_electron_dose_per_image'), 2, 100)],
      ['  ILLUMINATION MODE', imaging('illumination_mode')],
      ['  NOMINAL MAGNIFICATION', imaging('nominal_magnification')],
      ['  CALIBRATED MAGNIFICATION', imaging('calibrated_magnification')],
      ['  SOURCE', imaging('electron_source')],
      ['  ACCELERATION VOLTAGE (KV)', imaging('accelerating_voltage')],
      ['  IMAGING DETAILS', imaging('details')],
    ]),
  ];
}

/** REMARK 247 of an EM entry: its CRYST1 and SCALE records carry no meaning. */
export function remark247(block: Block): string[] {
  if (!isEm(block)) return [];
  return [
    line(247),
    line(247, 'ELECTRON MICROSCOPY'),
    line(247, ' THE COORDINATES IN THIS ENTRY WERE GENERATED FROM ELECTRON'),
    line(247, ' MICROSCOPY DATA. PROTEIN DATA BANK CONVENTIONS REQUIRE'),
    line(247, ' THAT CRYST1 AND SCALE RECORDS BE INCLUDED, BUT THE VALUES'),
    line(247, ' ON THESE RECORDS ARE MEANINGLESS EXCEPT FOR THE CALCULATION'),
    line(247, ' OF THE STRUCTURE FACTORS.'),
  ];
}
