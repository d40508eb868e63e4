/**
 * The REMARKs of an NMR entry: REMARK 3 in its NMR form (the refinement program and its authors),
 * 210 (experimental details, from the pdbx_nmr_* categories) and, for a solution study, 215 (the
 * note on meaningless CRYST1 and SCALE records). Layouts follow the archive's files (2BEG, 1LCD):
 * a missing value is NULL, several rows of a category are joined with "; ", a long value continues
 * under its first character, a long remark on lines indented by one.
 */
import { type Block, joinedRows as joined, reader, remarkLine as line, rows, value, wrapWords } from './legacy-cif.js';

/** Whether the entry's method is an NMR one. */
export function isNmr(block: Block): boolean {
  return /NMR/.test(value(block, 'exptl', 'method').toUpperCase());
}

/** The NMR software of one classification: "NAME VERSION" and their authors, comma-separated. */
function nmrSoftware(block: Block, classification: string): { programs: string; authors: string } {
  const v = reader(block, 'pdbx_nmr_software');
  const programs: string[] = [];
  const authors: string[] = [];
  for (let i = 0; i < rows(block, 'pdbx_nmr_software'); i++) {
    if (v('classification', i).toLowerCase() !== classification) continue;
    programs.push([v('name', i), v('version', i)].filter(Boolean).join(' ').toUpperCase());
    if (v('authors', i)) authors.push(v('authors', i).toUpperCase());
  }
  return { programs: programs.join(', '), authors: authors.join(', ') };
}

/** `label: value` lines, the value wrapped to 34 columns and continued under its first character. */
function labelled(n: number, label: string, v: string): string[] {
  const head = `${label}: `;
  const parts = wrapWords(v || 'NULL', 34);
  return parts.map((p, i) => line(n, `${i ? ' '.repeat(head.length) : head}${p}`));
}

/** REMARK 3 of an NMR entry: the refinement program and its authors, then the refinement's details. */
export function remark3Nmr(block: Block): string[] {
  if (!isNmr(block)) return [];
  const { programs, authors } = nmrSoftware(block, 'refinement');
  const details = joined(block, 'pdbx_nmr_refine', 'details');
  const out = [line(3), line(3, 'REFINEMENT.'), ...labelled(3, '  PROGRAM     ', programs), ...labelled(3, '  AUTHORS     ', authors), line(3)];
  if (!details) return [...out, line(3, ' OTHER REFINEMENT REMARKS: NULL')];
  return [...out, line(3, ' OTHER REFINEMENT REMARKS:'), ...wrapWords(details, 67).map((t) => line(3, ` ${t}`))];
}

/** REMARK 210: how the NMR data were taken and the structure determined, and the ensemble submitted. */
export function remark210(block: Block): string[] {
  if (!isNmr(block)) return [];
  const ensemble = (field: string) => value(block, 'pdbx_nmr_ensemble', field).toUpperCase();
  const field = (label: string, v: string) => labelled(210, label.padEnd(32), v);
  const remark = joined(block, 'pdbx_nmr_details', 'text');
  return [
    line(210),
    line(210, 'EXPERIMENTAL DETAILS'),
    ...field(' EXPERIMENT TYPE', 'NMR'),
    ...field(' TEMPERATURE           (KELVIN)', joined(block, 'pdbx_nmr_exptl_sample_conditions', 'temperature')),
    ...field(' PH', joined(block, 'pdbx_nmr_exptl_sample_conditions', 'pH')),
    ...field(' IONIC STRENGTH', joined(block, 'pdbx_nmr_exptl_sample_conditions', 'ionic_strength')),
    ...field(' PRESSURE', joined(block, 'pdbx_nmr_exptl_sample_conditions', 'pressure')),
    ...field(' SAMPLE CONTENTS', joined(block, 'pdbx_nmr_sample_details', 'contents')),
    line(210),
    ...field(' NMR EXPERIMENTS CONDUCTED', joined(block, 'pdbx_nmr_exptl', 'type')),
    ...field(' SPECTROMETER FIELD STRENGTH', joined(block, 'pdbx_nmr_spectrometer', 'field_strength', ' MHz')),
    ...field(' SPECTROMETER MODEL', joined(block, 'pdbx_nmr_spectrometer', 'model')),
    ...field(' SPECTROMETER MANUFACTURER', joined(block, 'pdbx_nmr_spectrometer', 'manufacturer')),
    line(210),
    line(210, ' STRUCTURE DETERMINATION.'),
    ...field('  SOFTWARE USED', nmrSoftware(block, 'structure solution').programs),
    ...field('  METHOD USED', joined(block, 'pdbx_nmr_refine', 'method')),
    line(210),
    ...field('CONFORMERS, NUMBER CALCULATED', ensemble('conformers_calculated_total_number')),
    ...field('CONFORMERS, NUMBER SUBMITTED', ensemble('conformers_submitted_total_number')),
    ...field('CONFORMERS, SELECTION CRITERIA', ensemble('conformer_selection_criteria')),
    line(210),
    line(210, `BEST REPRESENTATIVE CONFORMER IN THIS ENSEMBLE : ${value(block, 'pdbx_nmr_representative', 'conformer_id').toUpperCase() || 'NULL'}`),
    line(210),
    ...wrapWords(`REMARK: ${remark || 'NULL'}`, 63).map((t, i) => line(210, i ? ` ${t}` : t)),
  ];
}

/** REMARK 215 of a solution NMR entry: its CRYST1 and SCALE records carry no meaning. */
export function remark215(block: Block): string[] {
  if (value(block, 'exptl', 'method').toUpperCase() !== 'SOLUTION NMR') return [];
  return [
    line(215),
    line(215, 'NMR STUDY'),
    line(215, 'THE COORDINATES IN THIS ENTRY WERE GENERATED FROM SOLUTION'),
    line(215, 'NMR DATA.  PROTEIN DATA BANK CONVENTIONS REQUIRE THAT'),
    line(215, 'CRYST1 AND SCALE RECORDS BE INCLUDED, BUT THE VALUES ON'),
    line(215, 'THESE RECORDS ARE MEANINGLESS.'),
  ];
}
