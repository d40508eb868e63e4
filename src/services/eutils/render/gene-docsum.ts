/** The db=gene document summary (esummary version 2.0), field by field as the official DTD orders it. */
import type { GeneView } from '../../ncbi/gene/view.js';
import { cellList } from '../../ncbi/text.js';
import { listField, numberField, objectField, textField, type SNode, type SValue } from '../schema.js';
import { chromosomeOf, primaryPlacements } from '../../ncbi/gene/placement.js';

export const GENE_DOCSUM: readonly SNode[] = [
  textField('Name'),
  textField('Description'),
  numberField('Status'),
  numberField('CurrentID'),
  textField('Chromosome'),
  textField('GeneticSource'),
  textField('MapLocation'),
  textField('OtherAliases'),
  textField('OtherDesignations'),
  textField('NomenclatureSymbol'),
  textField('NomenclatureName'),
  textField('NomenclatureStatus'),
  listField('Mim', textField('int')),
  listField('GenomicInfo', objectField('GenomicInfoType', [textField('ChrLoc'), textField('ChrAccVer'), numberField('ChrStart'), numberField('ChrStop'), numberField('ExonCount')])),
  numberField('GeneWeight'),
  textField('Summary'),
  textField('ChrSort'),
  numberField('ChrStart'),
  objectField('Organism', [textField('ScientificName'), textField('CommonName'), numberField('TaxID')]),
  listField('LocationHist', objectField('LocationHistType', [textField('AnnotationRelease'), textField('AssemblyAccVer'), textField('ChrAccVer'), numberField('ChrStart'), numberField('ChrStop')])),
];

const NOMENCLATURE_STATUS: Record<string, string> = { O: 'Official', I: 'Interim' };

export function mimIds(dbXrefs: string): string[] {
  return cellList(dbXrefs)
    .filter((x) => x.startsWith('MIM:'))
    .map((x) => x.slice(4));
}

export function geneDocsum(v: GeneView): Record<string, SValue> {
  const g = v.gene;
  const chromosomes = cellList(g.chromosome);
  const places = primaryPlacements(v);
  // Minus-strand genes are given from their upstream end, so ChrStart is then above ChrStop.
  const info = places.map((pl) => ({
    ChrLoc: chromosomeOf(v, pl.accession),
    ChrAccVer: pl.accession,
    ChrStart: pl.minus ? pl.end : pl.start,
    ChrStop: pl.minus ? pl.start : pl.end,
  }));
  const chrSort = chromosomes.length === 1 && /^\d+$/.test(chromosomes[0] as string) ? (chromosomes[0] as string).padStart(2, '0') : (chromosomes[0] ?? '');
  return {
    Name: g.symbol,
    Description: g.description,
    Status: 0,
    CurrentID: 0,
    Chromosome: chromosomes.join(', '),
    GeneticSource: chromosomes.includes('MT') ? 'mitochondrion' : 'genomic',
    MapLocation: g.mapLocation,
    OtherAliases: cellList(g.synonyms).join(', '),
    OtherDesignations: g.otherDesignations,
    NomenclatureSymbol: g.nomSymbol,
    NomenclatureName: g.nomName,
    NomenclatureStatus: NOMENCLATURE_STATUS[g.nomStatus] ?? g.nomStatus,
    Mim: mimIds(g.dbXrefs),
    GenomicInfo: info,
    GeneWeight: v.weight,
    Summary: '',
    ChrSort: chrSort,
    ChrStart: places[0]?.start,
    Organism: { ScientificName: v.taxon.scientific, CommonName: v.taxon.common, TaxID: v.taxon.taxId },
    LocationHist: [],
  };
}
