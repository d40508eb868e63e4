/**
 * Generated structure factors in the archive's mmCIF layout (`r{id}sf.ent`): amplitudes computed
 * from the generated model itself (isotropic atoms, f = Z exp(-B s^2/4), space-group P 21 21 21),
 * with seeded noise, sigmas and a 5% free set. They are consistent with the model, not measured.
 */
import { CifBlockWriter } from './cif-text.js';
import { gauss, type Vec } from './geometry.js';

const Z: Record<string, number> = { C: 6, N: 7, O: 8, P: 15, S: 16, FE: 26 };

/** The four operators of P 21 21 21 on fractional coordinates. */
const P212121: Array<(f: Vec) => Vec> = [([x, y, z]) => [x, y, z], ([x, y, z]) => [-x + 0.5, -y, z + 0.5], ([x, y, z]) => [-x, y + 0.5, -z + 0.5], ([x, y, z]) => [x + 0.5, -y + 0.5, -z]];

export interface SfInput {
  id: string;
  header: string;
  cell: { a: number; b: number; c: number };
  resolution: number;
  resLow: number;
  atoms: Array<{ element: string; xyz: Vec; b: number }>;
  r: () => number;
}

/** Writes the file and returns it with the number of reflections (for `reflns.number_obs`). */
export function structureFactors(s: SfInput): { text: string; count: number } {
  const { a, b, c } = s.cell;
  const frac = s.atoms.flatMap((at) => P212121.map((op) => ({ f: op([at.xyz[0] / a, at.xyz[1] / b, at.xyz[2] / c]), z: Z[at.element] ?? 6, b: at.b })));
  const lines: string[] = [];
  const hmax = Math.floor(a / s.resolution);
  const kmax = Math.floor(b / s.resolution);
  const lmax = Math.floor(c / s.resolution);
  for (let h = 0; h <= hmax; h++) {
    for (let k = 0; k <= kmax; k++) {
      for (let l = 0; l <= lmax; l++) {
        if (h + k + l === 0) continue;
        // systematic absences of the screw axes
        if ((k === 0 && l === 0 && h % 2) || (h === 0 && l === 0 && k % 2) || (h === 0 && k === 0 && l % 2)) continue;
        const s2 = (h / a) ** 2 + (k / b) ** 2 + (l / c) ** 2; // (1/d)^2, orthorhombic
        const d = 1 / Math.sqrt(s2);
        if (d < s.resolution || d > s.resLow) continue;
        let re = 0;
        let im = 0;
        for (const at of frac) {
          const f = at.z * Math.exp((-at.b * s2) / 4);
          const ph = 2 * Math.PI * (h * at.f[0] + k * at.f[1] + l * at.f[2]);
          re += f * Math.cos(ph);
          im += f * Math.sin(ph);
        }
        const F = Math.hypot(re, im);
        const sigma = 0.03 * F + 2 + Math.abs(gauss(s.r));
        const Fobs = Math.max(0, F + sigma * gauss(s.r) * 0.5);
        const status = s.r() < 0.05 ? 'f' : 'o';
        lines.push(`1 1 1 ${h} ${k} ${l} ${status} ${Fobs.toFixed(1)} ${sigma.toFixed(1)}`);
      }
    }
  }
  const w = new CifBlockWriter(`r${s.id.toLowerCase()}sf`, s.header);
  w.category('cell', [{ entry_id: s.id, length_a: a.toFixed(3), length_b: b.toFixed(3), length_c: c.toFixed(3), angle_alpha: '90.00', angle_beta: '90.00', angle_gamma: '90.00' }]);
  w.category('symmetry', [{ entry_id: s.id, 'space_group_name_H-M': 'P 21 21 21', Int_Tables_number: 19 }]);
  w.category('diffrn_radiation_wavelength', [{ id: 1, wavelength: '1.0000' }]);
  w.category('reflns_scale', [{ group_code: 1 }]);
  w.rawLoop('refln', ['crystal_id', 'wavelength_id', 'scale_group_code', 'index_h', 'index_k', 'index_l', 'status', 'F_meas_au', 'F_meas_sigma_au'], lines);
  return { text: w.toString(), count: lines.length };
}
