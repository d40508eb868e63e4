// @ts-check
/**
 * 3D conformers off the main thread, with OpenChemLib: its conformer generator (torsion-library
 * based, collision-checked) then an MMFF94s minimisation, as PubChem3D's models are MMFF94s
 * conformers. One molecule can keep the generator or the force field busy for long, and neither
 * can be interrupted, so they run here, where the pool ends the whole thread at the task's
 * deadline. Plain JavaScript, so Node starts it from the source tree and from the build alike.
 *
 * Messages: {id, molfile, seed, iterations} -> {id, molfile, energy} (a V2000 molfile with 3D
 * coordinates and explicit hydrogens); a structure the generator cannot place -> {id, invalid: true}.
 */
import { parentPort } from 'node:worker_threads';
import OCL from 'openchemlib';

// The force field's parameter tables are static resources that must be registered once.
OCL.Resources.registerFromNodejs();

function handle(msg) {
  const mol = OCL.Molecule.fromMolfile(msg.molfile);
  if (!mol || mol.getAllAtoms() === 0) return { id: msg.id, invalid: true };
  const conformer = new OCL.ConformerGenerator(msg.seed ?? 42).getOneConformerAsMolecule(mol);
  if (!conformer) return { id: msg.id, invalid: true };
  let energy;
  try {
    const ff = new OCL.ForceFieldMMFF94(conformer, OCL.ForceFieldMMFF94.MMFF94S, {});
    ff.minimise({ maxIts: msg.iterations ?? 2000 });
    energy = ff.getTotalEnergy();
  } catch {
    // Atom types MMFF94 lacks: the generator's geometry stands, without an energy.
    energy = undefined;
  }
  return { id: msg.id, molfile: conformer.toMolfile(), energy };
}

parentPort?.on('message', (msg) => {
  let reply;
  try {
    reply = handle(msg);
  } catch (err) {
    reply = { id: msg.id, invalid: true, error: String(err && err.message ? err.message : err).slice(0, 300) };
  }
  parentPort?.postMessage(reply);
});
parentPort?.postMessage({ ready: true });
