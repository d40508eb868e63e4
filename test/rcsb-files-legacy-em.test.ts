/**
 * The REMARKs of an electron microscopy entry in a legacy `.pdb` (REMARK 2, 3 in its EM form, 245
 * and 247), compared line for line with the archive's file of 7DDO (a cryo-EM entry, format V. 3.30).
 * No mmCIF of 7DDO is at hand: its em_* values, read off its .pdb, are set into an altered copy of
 * 4HHB's mmCIF (method, resolution and the em_* categories replaced): not a real entry. What is
 * checked is how each em_* item is written (label, columns, NULL, decimals, units, wrapping).
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { closeCifPool, parseCif, toLegacyPdb } from '../src/core/mmcif/index.js';
import { firstBlock } from '../src/core/mmcif/parse.js';
import { mergeHeader } from '../src/services/pdb/files/legacy-header.js';
import { fixture } from './rcsb-files-fixtures.js';

afterAll(async () => {
  await closeCifPool();
});

const real7ddo = gunzipSync(fixture('7ddo.pdb.gz')).toString('utf8');

const records = (text: string, type: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(type))
    .map((l) => l.trimEnd());

/** 4HHB's mmCIF made an EM entry with 7DDO's em_* values (a dose of 50 electrons per square angstrom). */
function emEntry(): string {
  const cif = gunzipSync(fixture('4hhb.cif.gz')).toString('utf8');
  const altered = cif.replace("_exptl.method            'X-RAY DIFFRACTION'", "_exptl.method            'ELECTRON MICROSCOPY'").replace(/^(_refine\.ls_d_res_high +)\S+/m, '$1?');
  expect(altered).toContain("'ELECTRON MICROSCOPY'");
  const em = [
    '_em_experiment.id 1',
    "_em_experiment.reconstruction_method 'SINGLE PARTICLE'",
    '_em_experiment.aggregation_state PARTICLE',
    '#',
    '_em_3d_reconstruction.id 1',
    '_em_3d_reconstruction.resolution 3.4',
    '_em_3d_reconstruction.num_particles 126986',
    '_em_3d_reconstruction.symmetry_type POINT',
    '_em_3d_reconstruction.actual_pixel_size ?',
    '#',
    '_em_ctf_correction.id 1',
    '_em_ctf_correction.type NONE',
    '#',
    'loop_',
    '_em_entity_assembly.id',
    '_em_entity_assembly.name',
    "1 'Cryo-EM structure of human ACE2 and GD/1/2019 RBD'",
    "2 'human ACE2'",
    "3 'GD/1/2019 RBD'",
    '#',
    '_em_specimen.id 1',
    '_em_specimen.concentration 0.2',
    '#',
    '_em_buffer.id 1',
    '_em_buffer.pH 8',
    '#',
    '_em_imaging.id 1',
    "_em_imaging.microscope_model 'FEI TITAN KRIOS'",
    "_em_imaging.mode 'BRIGHT FIELD'",
    "_em_imaging.illumination_mode 'FLOOD BEAM'",
    "_em_imaging.electron_source 'FIELD EMISSION GUN'",
    '_em_imaging.accelerating_voltage 300',
    '#',
    '_em_image_recording.id 1',
    "_em_image_recording.film_or_detector_model 'GATAN K3 BIOQUANTUM (6k x 4k)'",
    '_em_image_recording.avg_electron_dose_per_image 50',
    '#',
    '',
  ].join('\n');
  return `${altered.trimEnd()}\n${em}`;
}

async function legacyOf(cif: string): Promise<string> {
  const file = await parseCif(cif);
  return mergeHeader(toLegacyPdb(file), firstBlock(file));
}

describe('legacy .pdb of an electron microscopy entry', () => {
  it("writes REMARK 2, 3, 245 and 247 as the archive's 7DDO file has them", async () => {
    const ours = await legacyOf(emEntry());
    for (const type of ['REMARK   2', 'REMARK   3', 'REMARK 245', 'REMARK 247']) {
      expect(records(ours, type), type).toEqual(records(real7ddo, type));
    }
    expect(records(ours, 'REMARK 245')).toHaveLength(38);
    // In number order, between 215's place and 280's; no crystal remark for a microscope.
    const at = (type: string) => ours.split('\n').findIndex((l) => l.startsWith(type));
    expect(at('REMARK   4')).toBeGreaterThan(at('REMARK   3'));
    expect(at('REMARK 245')).toBeGreaterThan(at('REMARK 100'));
    expect(at('REMARK 247')).toBeGreaterThan(at('REMARK 245'));
    expect(at('REMARK 350')).toBeGreaterThan(at('REMARK 247'));
    expect(records(ours, 'REMARK 200')).toEqual([]);
    for (const l of ours.split('\n')) if (l) expect(l.length, l).toBe(80);
  });

  it('writes none of them for an X-ray entry, and NULL for what an EM entry lacks', async () => {
    const xray = await legacyOf(gunzipSync(fixture('4hhb.cif.gz')).toString('utf8'));
    expect(records(xray, 'REMARK 245')).toEqual([]);
    expect(records(xray, 'REMARK 247')).toEqual([]);
    expect(records(xray, 'REMARK   3').some((l) => l.includes('EM IMAGE RECONSTRUCTION'))).toBe(false);
    // An EM entry without any em_* category: every value NULL, the layout whole.
    const bare = gunzipSync(fixture('4hhb.cif.gz')).toString('utf8').replace("'X-RAY DIFFRACTION'", "'ELECTRON MICROSCOPY'");
    const ours = await legacyOf(bare);
    expect(records(ours, 'REMARK 245')).toHaveLength(35);
    expect(
      records(ours, 'REMARK 245')
        .filter((l) => l.includes(': '))
        .every((l) => l.endsWith(': NULL')),
    ).toBe(true);
    expect(records(ours, 'REMARK   3')).toContain('REMARK   3   EFFECTIVE RESOLUTION (ANGSTROMS)  : NULL');
  });
});
