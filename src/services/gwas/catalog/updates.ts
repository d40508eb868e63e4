/**
 * Catalog updates. The GWAS Catalog publishes whole releases (weekly) and no list of withdrawn
 * studies: an update is a release's TSVs, whole or cut down to the studies wanted (new ones, say),
 * and each study given replaces its row, its ancestry rows and its associations, each from its own
 * table. SNPs, traits, genes and publications are shared by studies: the served ones are kept (the
 * first description wins, as within a load), new ones added, and those no study or association
 * refers to any more removed. Lists keep their load order: replaced and new records come last.
 * Unpublished studies and their ancestries are replaced by accession the same way, an EFO term's
 * parent links by the trait-mapping rows that name it, and an EFO term of efo.obo with its is_a
 * links by the term of the same id (a term a newer file marks obsolete keeps its old links: the
 * reader leaves obsolete terms out).
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Updates } from '../../../core/ingest/updates.js';
import { ident, type Db } from '../../../core/store/db.js';
import { renumber } from '../../../core/store/tables.js';
import type { CatalogRecord } from './records.js';
import { continueCounters, tables } from './store.js';
import { UNDER_TABLES } from './store-under.js';

// The link tables found through an association's id while an update removes associations.
const LINKS = ['assoc_snps', 'assoc_traits', 'assoc_genes'] as const;
const linkIndex = (t: TableSet, link: string) => ident(`${t.name(link)}_upd`);

async function removeLinks(tx: Db, t: TableSet, accs: readonly string[]): Promise<void> {
  const n = tables(t);
  for (let i = 0; i < accs.length; i += 500) {
    const chunk = accs.slice(i, i + 500);
    const of = `SELECT id FROM ${n.assocs} WHERE acc IN (${chunk.map(() => '?').join(', ')})`;
    for (const link of LINKS) await tx.run(`DELETE FROM ${n[link]} WHERE assoc_id IN (${of})`, chunk);
  }
}

/** Shared rows nothing refers to any more, then the dense load-order numbers closed up. */
async function tidy(db: Db, t: TableSet): Promise<void> {
  const n = tables(t);
  for (const link of LINKS) await db.exec(`DROP INDEX ${linkIndex(t, link)}`);
  const unused = (table: string, where: string) => db.run(`DELETE FROM ${table} WHERE NOT (${where})`);
  await unused(n.snps, `EXISTS (SELECT 1 FROM ${n.assoc_snps} x WHERE x.rsid_lc = ${n.snps}.rsid_lc)`);
  await unused(
    n.traits,
    `EXISTS (SELECT 1 FROM ${n.assoc_traits} x WHERE x.short_form = ${n.traits}.short_form) OR EXISTS (SELECT 1 FROM ${n.study_traits} x WHERE x.short_form = ${n.traits}.short_form)`,
  );
  await unused(n.genes, `EXISTS (SELECT 1 FROM ${n.assoc_genes} x WHERE x.gene_lc = ${n.genes}.name_lc)`);
  await unused(n.pubs, `EXISTS (SELECT 1 FROM ${n.studies} x WHERE x.pubmed = ${n.pubs}.pubmed)`);
  await unused(n.snp_genes, `EXISTS (SELECT 1 FROM ${n.snps} x WHERE x.rsid_lc = ${n.snp_genes}.rsid_lc)`);
  // Bodies of work keep their ids (they are in v2's addresses); those no unpublished study names go.
  await unused(n.bows, `EXISTS (SELECT 1 FROM ${n.unpub_studies} x WHERE x.bow_id = ${n.bows}.id)`);
  await renumber(db, t.name('studies'), 'id');
  for (const table of ['assocs', 'snps', 'traits', 'genes', 'pubs']) await renumber(db, t.name(table), 'ord');
}

export const catalogUpdates: Updates<Sourced<CatalogRecord>> = {
  noun: 'studies',
  parts: {
    study: { studies: 'acc', study_traits: 'acc' },
    ancestry: { ancestries: 'acc' },
    association: { assocs: 'acc' },
    unpublished: { unpub_studies: 'acc' },
    unpublishedAncestry: { unpub_ancestries: 'acc' },
    // A term's parent links are replaced whole by the rows of a trait-mappings file that name it.
    traitMapping: { trait_map: 'short_form' },
    efoTerm: { efo_terms: 'short_form', efo_edges: 'child' },
  },
  derived: UNDER_TABLES,
  key: ({ value }) => (value.kind === 'traitMapping' || value.kind === 'efoTerm' ? { part: value.kind, id: value.shortForm } : { part: value.kind, id: value.acc }),
  async remove(tx, t, part, ids) {
    if (part === 'association') await removeLinks(tx, t, ids as string[]);
  },
  async afterCopy(db, _from, to) {
    await continueCounters(db, to);
    for (const link of LINKS) await db.exec(`CREATE INDEX ${linkIndex(to, link)} ON ${tables(to)[link]} (assoc_id)`);
  },
  beforeFinish: tidy,
};
