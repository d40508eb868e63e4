/**
 * The services' ids in the registry's order, without loading a service: what the command line
 * needs to tell `biomirror <service> ...` from its own commands, and to print its help at once
 * (loading every service takes about a second). registry.ts checks that it lists the same ids.
 */
export const SERVICE_IDS: readonly string[] = [
  'clinicaltrials',
  'eutils',
  'datasets',
  'pubchem',
  'protocols',
  'gwas',
  'biorxiv',
  'pgx',
  'rcsb-data',
  'rcsb-files',
  'rcsb-search',
  'rcsb-www',
  'alphafold',
  'exec',
];
