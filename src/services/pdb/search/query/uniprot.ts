/**
 * The UniProt accessions of polymer entities as attribute values. They come from SIFTS, a dataset
 * loaded apart from the archive (before or after it, and updated on its own schedule), so they are
 * not in the archive's value table: they are read through a view of the SIFTS chains joined to the
 * archive's chains, shaped as the value table, so that conditions, facets, sorts and groups read
 * them as any other attribute. The view is named by both generations' tables, so statements and
 * caches keyed by SQL text stay right when either dataset is loaded again.
 *
 * The Data API documents carry the same values (`uniprot_ids`, and per accession one
 * `reference_sequence_identifiers` record and one `rcsb_polymer_entity_align` record, database
 * UniProt, provenance SIFTS), added as they are served (store/pdb-data.ts). The aligned regions' numbers are
 * not among these attributes.
 */
import type { Dialect } from '../../../../core/store/db.js';
import type { SearchTables } from '../build/indexer.js';

const IDS = 'rcsb_polymer_entity_container_identifiers';
const REFS = `${IDS}.reference_sequence_identifiers`;
const ALIGN = 'rcsb_polymer_entity_align';

/** Attribute → what its value is: the accession, or a constant of every record. */
const VALUES: ReadonlyMap<string, { n: number; value: 'accession' | string }> = new Map([
  [`${IDS}.uniprot_ids`, { n: 1, value: 'accession' }],
  [`${REFS}.database_accession`, { n: 2, value: 'accession' }],
  [`${REFS}.database_name`, { n: 3, value: 'UniProt' }],
  [`${REFS}.provenance_source`, { n: 4, value: 'SIFTS' }],
  [`${ALIGN}.reference_database_accession`, { n: 5, value: 'accession' }],
  [`${ALIGN}.reference_database_name`, { n: 6, value: 'UniProt' }],
  [`${ALIGN}.provenance_source`, { n: 7, value: 'SIFTS' }],
]);

export const isUniprotAttribute = (path: string): boolean => VALUES.has(path);

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The value table's view over SIFTS (`sifts`, its chains table) and the archive's chains
 * (`chains`), as index tables beside the archive's (`archive`: objects, for negation and mappings).
 * Every record of an entity's reference sequences (and alignments) is a UniProt one from SIFTS,
 * so all share record number 0: a same-record condition on name and accession holds exactly when
 * the entity has the accession.
 */
export function uniprotIndex(archive: SearchTables, chains: string, sifts: string, dialect: Dialect): SearchTables {
  // Identifiers compare byte by byte, as the archive's index tables have them (indexer.ts); values
  // keep the collation of the SIFTS table, whose index of lower-cased accessions then serves them.
  const c = dialect === 'postgres' ? ' COLLATE "C"' : '';
  const nothing = dialect === 'postgres' ? 'CAST(NULL AS DOUBLE PRECISION)' : 'CAST(NULL AS REAL)';
  // Several chains of an entity, and several segments of a chain, name the same accession.
  const from = `FROM ${sifts} s JOIN ${chains} c ON c.entry_id = s.entry_id AND COALESCE(c.auth_id, c.asym_id) = s.chain`;
  const selects = [...VALUES.values()].map(({ n, value }) => {
    const str = value === 'accession' ? 's.accession' : literal(value);
    return `SELECT DISTINCT 'polymer_entity' AS kind, (c.entry_id || '_' || c.entity_id)${c} AS obj, c.entry_id${c} AS entry_id, ${n} AS attr, 0 AS rec, ${nothing} AS num, ${str} AS str, LOWER(${str}) AS low ${from}`;
  });
  const sattr = `(${selects.join(' UNION ALL ')})`;
  const paths = [...VALUES.keys()].map((p) => `SELECT ${literal(p)} AS attr, 'polymer_entity' AS kind, 1 AS multi`).join(' UNION ALL ');
  // The attributes have values when some chain of the archive is mapped. Read as `FROM <sattrs>`:
  // the alias is part of the text (PostgreSQL before 16 needs one).
  const sattrs = `(SELECT p.attr, p.kind, p.multi FROM (${paths}) p WHERE EXISTS (SELECT 1 ${from})) uniprot_attrs`;
  return {
    ...archive,
    sattr,
    sattrs,
    attrNumbers: new Map([...VALUES].map(([p, v]) => [p, v.n])),
  };
}
