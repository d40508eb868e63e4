/**
 * The end of a load: the served documents are derived from the records read, because most of them
 * join several files (a gene's annotations and related drugs, a pair's sources and levels). The
 * large files (annotations with their allele texts and evidence, relationships) are walked in pages
 * and their documents written as they are made; what is held whole is the small files (genes,
 * chemicals, guidelines, labels, pathways, variants, alleles) and, per annotation, its place in the
 * list and its gene–drug pairs.
 */
import type { TableSet } from '../../../../core/ingest/dataset.js';
import type { Db } from '../../../../core/store/db.js';
import { indexTables } from '../schema.js';
import { deriveAnnotations } from './annotations.js';
import { LoadIndex, Links, put, reader } from './context.js';
import { withDetails } from './details.js';
import { alleleRows, chemicalRows, geneRows, guidelineRows, labelRows, pathwayRows, variantRows } from './docs.js';
import { derivePairs } from './pairs.js';
import { rawEach } from '../write.js';

export async function finishTables(db: Db, t: TableSet): Promise<void> {
  const plain = reader(db, t);
  const read = withDetails(plain, await plain('detail'));
  const index = new LoadIndex(await read('gene'), await read('chemical'));
  const links = new Links(db, t);
  const guidelines = await read('guideline');
  const labels = await read('label');

  const ann = await deriveAnnotations(db, t, index, links, { guidelines, labels });
  const pairs = await derivePairs(index, {
    annotationPairs: ann.pairs.values(),
    guidelines,
    labels,
    cpic: await read('cpicPair'),
    relationships: rawEach(db, t, 'relationship'),
  });
  ann.pairs.clear();
  await put(db, t, 'pairs', ['gene_key', 'drug_key', 'cpic_level', 'ord', 'doc'], pairs.rows);
  pairs.rows.length = 0;

  // Genes read their annotations back through the links written so far.
  await links.flush();
  await geneRows(db, t, index, pairs.drugsOfGene);
  const c = chemicalRows(index, pairs.genesOfDrug);
  await put(db, t, 'chemicals', ['id', 'ord', 'doc'], c.chemicals);
  await put(db, t, 'chemical_names', ['name', 'id'], c.names);

  await put(db, t, 'guidelines', ['id', 'source_key', 'ord', 'doc'], await guidelineRows(index, links, guidelines));
  await put(db, t, 'labels', ['id', 'source_key', 'ord', 'doc'], await labelRows(index, links, labels));
  await put(db, t, 'pathways', ['id', 'ord', 'doc'], await pathwayRows(index, links, await read('pathway')));
  await put(db, t, 'variants', ['key', 'id', 'chromosome', 'position', 'ord', 'doc'], variantRows(await read('variant'), ann.referencesByVariant));
  await put(db, t, 'alleles', ['key', 'gene_key', 'ord', 'doc'], alleleRows(index, await read('allele')));
  await links.flush();
  await indexTables(db, t);
}
