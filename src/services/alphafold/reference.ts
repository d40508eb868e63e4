/**
 * The AlphaFold DB's API reference: the 3D-Beacons document it implements (vendored, reference/
 * SOURCES.md), and its own operations described from what the routes serve. Its own OpenAPI
 * document (`/api/openapi.json`) was not found to vendor, so it is not invented here.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { sourceUrl } from '../../core/files/project.js';
import type { ApiReference, OfficialApi, ParamDoc } from '../types.js';
import { AM_TABLES } from './extra-files.js';

let beacons: Promise<Record<string, unknown>> | undefined;

/** The 3D-Beacons API 2.0.0 document, read and parsed on first use (again after a failed read). */
function beaconsDocument(): Promise<Record<string, unknown>> {
  beacons ??= readFile(sourceUrl('services/alphafold/reference/3dbeacons-2.0.0.yaml'), 'utf8').then((text) => parseYaml(text) as Record<string, unknown>);
  beacons.catch(() => (beacons = undefined));
  return beacons;
}

export const ALPHAFOLD_OFFICIAL: readonly OfficialApi[] = [{ name: "3D-Beacons API 2.0.0 (the consortium's own document; the summary path served)", load: beaconsDocument, serverPath: '/api' }];

const accession: ParamDoc = { name: 'accession', in: 'path', description: 'UniProt accession of the entry', example: 'P69905' };
const fragment: ParamDoc = { name: 'fragment', in: 'path', type: 'integer', description: 'Fragment number (1 for proteins of up to 2,700 residues)', example: 1 };
const version: ParamDoc = { name: 'version', in: 'path', type: 'integer', description: 'Version of the files, as loaded (the demo: 4; the current release: 6)', example: 4 };
const FILE = 'AF-{accession}-F{fragment}';

export const ALPHAFOLD_REFERENCE: ApiReference = {
  description:
    'The AlphaFold Protein Structure Database: predictions by UniProt accession, the 3D-Beacons summary, and the file host (models, confidence and predicted aligned error files). The demo holds P69905, P68871 and P01308, version 4.',
  tags: { API: 'alphafold.ebi.ac.uk/api', Files: 'alphafold.ebi.ac.uk/files' },
  operations: [
    {
      path: '/api/prediction/{qualifier}',
      tag: 'API',
      summary: 'Predictions of a UniProt accession',
      description: 'Every model of the accession (a JSON array), with its metadata, confidence fractions and file URLs.',
      params: [{ name: 'qualifier', in: 'path', description: 'UniProt accession, entry name or model id (AF-P69905-F1)', example: 'P69905' }],
      answers: ['application/json'],
    },
    {
      path: '/api/uniprot/summary/{qualifier}.json',
      tag: 'API',
      summary: 'The 3D-Beacons summary of a UniProt accession',
      description: "The models of the accession in the 3D-Beacons API's `uniprot_summary` shape (its own document is the other one on this page).",
      params: [
        { name: 'qualifier', in: 'path', description: 'UniProt accession', example: 'P69905' },
        { name: 'provider', in: 'query', description: 'Only the structures of this provider (e.g. alphafold)' },
      ],
      answers: ['application/json'],
    },
    {
      path: `/files/${FILE}-model_v{version}.{format}`,
      tag: 'Files',
      summary: 'A model file',
      params: [accession, fragment, version, { name: 'format', in: 'path', description: 'mmCIF, BinaryCIF or legacy PDB', enum: ['cif', 'bcif', 'pdb'], example: 'cif' }],
      answers: ['chemical/x-mmcif', 'application/octet-stream', 'chemical/x-pdb'],
    },
    {
      path: `/files/${FILE}-confidence_v{version}.json`,
      tag: 'Files',
      summary: 'Per-residue confidence (pLDDT)',
      params: [accession, fragment, version, { name: 'categories', in: 'query', description: "Confidence categories as names or as the database's letters (H/M/L/D)", enum: ['names', 'letters'] }],
      answers: ['application/json'],
    },
    {
      path: `/files/${FILE}-predicted_aligned_error_v{version}.{format}`,
      tag: 'Files',
      summary: 'Predicted aligned error, as JSON or as its image',
      params: [accession, fragment, version, { name: 'format', in: 'path', description: 'The matrix (JSON) or its heat map (PNG)', enum: ['json', 'png'], example: 'json' }],
      answers: ['application/json', 'image/png'],
    },
    {
      path: '/files/msa/AF-{accession}-F{fragment}-msa_v{version}.a3m',
      tag: 'Files',
      summary: 'The multiple sequence alignment of a prediction (A3M)',
      params: [accession, fragment, version],
      answers: ['text/plain'],
      needs: 'MSA files',
    },
    {
      path: '/files/AF-{accession}-F{fragment}-{annotations}.csv',
      tag: 'Files',
      summary: 'AlphaMissense annotations of a prediction',
      params: [accession, fragment, { name: 'annotations', in: 'path', description: 'Amino-acid substitutions, or variants on GRCh37 or GRCh38', enum: AM_TABLES, example: 'hg38' }],
      answers: ['text/csv'],
      needs: 'AlphaMissense files',
    },
  ],
};
