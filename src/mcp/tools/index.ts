import { ncbiTools } from './ncbi.js';
import { otherTools } from './others.js';
import { pdbTools } from './pdb.js';
import { pharmgkbTools } from './pharmgkb.js';
import { protocolTools } from './protocols.js';
import { pubchemTools } from './pubchem.js';
import { skillTools } from './skills.js';
import { structureTools } from './structures.js';
import { sumstatsTools } from './sumstats.js';
import { trialTools } from './trials.js';
import type { ToolSpec } from './types.js';

const ALL = new Map(
  [...trialTools, ...ncbiTools, ...pubchemTools, ...otherTools, ...structureTools, ...sumstatsTools, ...pdbTools, ...pharmgkbTools, ...protocolTools, ...skillTools].map((t) => [t.name, t]),
);

/** The order an agent sees them in: by service, lookups before searches. */
const ORDER = [
  'trials_search',
  'trials_get',
  'gene_search',
  'gene_get',
  'clinvar_variants',
  'pubchem_compound',
  'pubchem_similarity',
  'pubchem_substructure',
  'gwas_associations',
  'gwas_sumstats_region',
  'pdb_entry',
  'pdb_entity',
  'pdb_assembly',
  'pdb_search',
  'pdb_attribute_search',
  'pdb_sequence_search',
  'pdb_structure_search',
  'pdb_chemical_search',
  'alphafold_prediction',
  'alphafold_confidence',
  'preprints',
  'pharmgkb_gene',
  'pharmgkb_clinical_annotations',
  'pharmgkb_guidelines',
  'pharmgkb_drug_labels',
  'pharmgkb_gene_drug_pairs',
  'protocols_search',
  'protocols_get',
  'skills_list',
  'skills_describe',
  'skills_run',
] as const;

export const TOOLS: readonly ToolSpec[] = ORDER.map((name) => {
  const t = ALL.get(name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
});
if (TOOLS.length !== ALL.size) throw new Error('a tool is missing from the order of tools');
