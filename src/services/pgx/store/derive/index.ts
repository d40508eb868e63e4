/**
 * The end of a load: the served documents are derived from the records read, because most of them
 * join several files (a gene's annotations and related drugs, a pair's sources and levels). The
 * whole derivation holds the load's annotations and relationships in memory, which for PharmGKB's
 * full downloads is tens of megabytes.
 */
import type { TableSet } from '../../../../core/ingest/dataset.js';
import type { Db } from '../../../../core/store/db.js';
import { indexTables } from '../schema.js';
import { deriveAnnotations } from './annotations.js';
import { LoadIndex, Links, put, reader } from './context.js';
import { alleleRows, chemicalRows, geneRows, guidelineRows, labelRows, pathwayRows, variantRows } from './docs.js';
import { derivePairs } from './pairs.js';

export async function finishTables(db: Db, t: TableSet): Promise<void> {
  const read = reader(db, t);
  const index = new LoadIndex(await read('gene'), await read('chemical'));
  const links = new Links();
  const guidelines = await read('guideline');
  const labels = await read('label');

  const ann = deriveAnnotations(index, links, {
    annotations: await read('annotation'),
    alleles: await read('annotationAllele'),
    evidence: await read('evidence'),
    guidelines,
    labels,
  });
  await put(db, t, 'annotations', ['id', 'level', 'ord', 'doc'], ann.rows);

  const pairs = derivePairs(index, {
    annotationPairs: ann.pairs,
    guidelines,
    labels,
    cpic: await read('cpicPair'),
    relationships: await read('relationship'),
  });
  await put(db, t, 'pairs', ['gene_key', 'drug_key', 'cpic_level', 'ord', 'doc'], pairs.rows);

  const g = geneRows(index, ann.byGene, pairs.drugsOfGene);
  await put(db, t, 'genes', ['key', 'id', 'ord', 'doc', 'brief'], g.genes);
  await put(db, t, 'gene_terms', ['term', 'gene_key'], g.terms);
  const c = chemicalRows(index, pairs.genesOfDrug);
  await put(db, t, 'chemicals', ['id', 'ord', 'doc'], c.chemicals);
  await put(db, t, 'chemical_names', ['name', 'id'], c.names);

  await put(db, t, 'guidelines', ['id', 'source_key', 'ord', 'doc'], guidelineRows(index, links, guidelines));
  await put(db, t, 'labels', ['id', 'source_key', 'ord', 'doc'], labelRows(index, links, labels));
  await put(db, t, 'pathways', ['id', 'ord', 'doc'], pathwayRows(index, links, await read('pathway')));
  await put(db, t, 'variants', ['key', 'id', 'chromosome', 'position', 'ord', 'doc'], variantRows(await read('variant'), ann.referencesByVariant));
  await put(db, t, 'alleles', ['key', 'gene_key', 'ord', 'doc'], alleleRows(index, await read('allele')));
  await put(db, t, 'links', ['res', 'kind', 'key', 'id'], links.rows);
  await indexTables(db, t);
}
