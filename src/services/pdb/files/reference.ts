/**
 * files.rcsb.org described for biomirror's reference page (the host publishes no OpenAPI
 * document): the file names names.ts reads, with examples from the demo archive (4HHB).
 */
import type { ApiReference, ParamDoc } from '../../types.js';

const FORMS =
  '`{id}.cif`, `{id}-sf.cif` (structure factors), `{id}.bcif` (BinaryCIF), `{id}.pdb` (legacy format, for entries it can hold), `{id}.pdb{N}` and `{id}-assembly{N}.cif` (biological assembly N), each also with `.gz`. The id in any case; an extended id (`pdb_00004hhb`) names the same entry.';

const file = (example: string): ParamDoc => ({ name: 'file', in: 'path', description: `The file's name: ${FORMS}`, example });

export const FILES_REFERENCE: ApiReference = {
  description:
    "The RCSB PDB's file host: each loaded entry's mmCIF as the archive holds it, and the formats and assemblies derived from it (BinaryCIF, legacy PDB, assemblies), with ETags and byte ranges. The demo archive holds 4HHB (deoxyhaemoglobin) and generated entries.",
  tags: { Files: 'files.rcsb.org' },
  operations: [
    {
      path: '/download/{file}',
      tag: 'Files',
      summary: 'Download an entry file',
      description: 'Sent as bytes to save (`application/octet-stream`); a `.gz` name sends the file gzipped.',
      params: [file('4hhb.cif')],
      answers: ['application/octet-stream'],
    },
    {
      path: '/view/{file}',
      tag: 'Files',
      summary: 'View an entry file as text',
      description: 'The text forms only (no `.gz`, no BinaryCIF), as `text/plain` for a browser to show.',
      params: [file('4hhb.pdb')],
      answers: ['text/plain'],
    },
  ],
};
