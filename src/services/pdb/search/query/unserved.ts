/**
 * Search attributes this server never gives values to: what the RCSB computes or integrates from
 * other resources (symmetry, domain classifications, DrugBank, sequence-cluster groups, validation
 * reports, ...) beyond the files a mirror loads (archive entries, the chemical component
 * dictionary, SIFTS). A condition, facet or sort on one answers 400 naming the attribute and why,
 * rather than an empty result that reads as "nothing matched"; the metadata schema leaves them out.
 *
 * The rule: every `rcsb_*` and `drugbank_*` container is computed by the RCSB, so it is unserved
 * unless this server's document builders write it (SERVED); the mmCIF categories the schemas list
 * are copied from the files when present, and answer as the loaded data has them.
 */
import type { ServiceError } from '../../../../core/http/errors.js';
import { badQuery } from '../../errors.js';

/** The RCSB-computed containers this server writes (documents/, and SIFTS' UniProt values in uniprot.ts). */
const SERVED: ReadonlySet<string> = new Set([
  'rcsb_id',
  'rcsb_accession_info',
  'rcsb_entry_container_identifiers',
  'rcsb_entry_info',
  'rcsb_primary_citation',
  'rcsb_latest_revision',
  'rcsb_polymer_entity',
  'rcsb_polymer_entity_container_identifiers',
  'rcsb_polymer_entity_name_com',
  'rcsb_polymer_entity_align',
  'rcsb_entity_source_organism',
  'rcsb_entity_host_organism',
  'rcsb_nonpolymer_entity',
  'rcsb_nonpolymer_entity_container_identifiers',
  'rcsb_branched_entity',
  'rcsb_branched_entity_container_identifiers',
  'rcsb_polymer_entity_instance_container_identifiers',
  'rcsb_nonpolymer_entity_instance_container_identifiers',
  'rcsb_branched_entity_instance_container_identifiers',
  'rcsb_assembly_container_identifiers',
  'rcsb_assembly_info',
  'rcsb_chem_comp_container_identifiers',
  'rcsb_chem_comp_descriptor',
  'rcsb_chem_comp_info',
]);

/** Attributes inside served containers that nothing here fills. */
const UNFILLED: readonly string[] = [
  'rcsb_polymer_entity_align.aligned_regions.',
  'rcsb_polymer_entity_align.reference_database_isoform',
  'rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers.database_isoform',
  'rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers.entity_sequence_coverage',
  'rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers.reference_sequence_coverage',
];

/** Why a group is missing, by the first matching pattern of its container's name. */
const REASONS: readonly [RegExp, string][] = [
  [/^rcsb_struct_symmetry/, 'structural symmetry is computed by the RCSB from the coordinates; the archive files do not carry it'],
  [/_(annotation|feature|feature_summary)$/, 'annotations and features (CATH, SCOP, ECOD, Pfam, InterPro, GO, validation features) are integrated by the RCSB from other resources'],
  [
    /^drugbank_|^rcsb_chem_comp_(related|target)$|^rcsb_(target_cofactors|related_target_references|binding_affinity)$/,
    'DrugBank and target data are licensed resources the RCSB integrates; they are not in the files a mirror loads',
  ],
  [/group_membership$|^rcsb_cluster_/, 'group and sequence-cluster memberships are computed by the RCSB across the archive'],
  [/^pdbx_vrpt_|validation_score$/, 'validation reports are not loaded'],
  [/^pdbx_reference_|^pdbx_(family_)?prd_audit$|^rcsb_bird_/, 'the BIRD dictionary is not loaded'],
  [/^rcsb_uniprot_/, 'UniProt records are not loaded (SIFTS gives the accessions of polymer entities only)'],
  [/^rcsb_pubmed_/, 'PubMed records are not loaded'],
];
const DEFAULT_REASON = 'computed by the RCSB from resources beyond the files a mirror loads';

const UNSERVED_PREFIX = /^(rcsb_|drugbank_|pdbx_vrpt_|pdbx_reference_|pdbx_prd_audit|pdbx_family_prd_audit)/;

/** Why this server never has values of the attribute, or undefined when it may. */
export function unservedReason(path: string): string | undefined {
  const top = path.split('.')[0] as string;
  if (UNFILLED.some((p) => (p.endsWith('.') ? path.startsWith(p) : path === p))) return 'this server does not compute it';
  if (!UNSERVED_PREFIX.test(top) || SERVED.has(top)) return undefined;
  return REASONS.find(([re]) => re.test(top))?.[1] ?? DEFAULT_REASON;
}

export function unservedProblem(path: string): ServiceError | undefined {
  const why = unservedReason(path);
  return why === undefined ? undefined : badQuery(`Attribute ${path} is not served by this mirror: ${why}`);
}

/** Throws the 400 for an attribute this server never has values of. */
export function checkServed(path: string): void {
  const p = unservedProblem(path);
  if (p) throw p;
}
