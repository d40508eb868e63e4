/**
 * Writes N synthetic studies as the registry's bulk download: a zip of one JSON file per study.
 *   node dist-bench/bench/generate.js [--studies 100000] [--out bench-studies.zip] [--seed 1]
 */
import { parseArgs } from 'node:util';
import { generateStudy, nctFor } from '../synthetic/ct-generate.js';
import { ZipWriter } from '../synthetic/zip.js';

export async function writeStudiesZip(path: string, n: number, seed = 1): Promise<void> {
  const w = new ZipWriter(path);
  for (let i = 0; i < n; i++) await w.add(`${nctFor(i)}.json`, JSON.stringify(generateStudy(i, { seed })));
  await w.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { studies: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } } });
  const n = Number(values.studies ?? 100_000);
  const out = values.out ?? 'bench-studies.zip';
  const t0 = Date.now();
  await writeStudiesZip(out, n, Number(values.seed ?? 1));
  process.stderr.write(`wrote ${n} studies to ${out} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
