/**
 * Organism names. NCBI Gene's bulk files carry only taxonomy ids; names come from this built-in
 * table of the spec's organisms (and the strains NCBI Gene files their genes under), and, for any
 * other taxon, from the taxonomy `names.dmp` when it is loaded with the gene data.
 */
export interface Taxon {
  taxId: number;
  scientific: string;
  /** GenBank common name, or '' when the taxonomy has none. */
  common: string;
  /** The taxon this one sits under, for searches that include subordinate taxa (yeast 4932 -> S288C). */
  parent?: number;
  /** Other names a search or a Datasets taxon may use. */
  aliases?: readonly string[];
}

export const BUILT_IN_TAXA: readonly Taxon[] = [
  { taxId: 9606, scientific: 'Homo sapiens', common: 'human' },
  { taxId: 10090, scientific: 'Mus musculus', common: 'house mouse', aliases: ['mouse'] },
  { taxId: 10116, scientific: 'Rattus norvegicus', common: 'Norway rat', aliases: ['rat'] },
  { taxId: 7955, scientific: 'Danio rerio', common: 'zebrafish' },
  { taxId: 7227, scientific: 'Drosophila melanogaster', common: 'fruit fly' },
  { taxId: 6239, scientific: 'Caenorhabditis elegans', common: '', aliases: ['C. elegans'] },
  { taxId: 4932, scientific: 'Saccharomyces cerevisiae', common: "baker's yeast", aliases: ['yeast'] },
  { taxId: 559292, scientific: 'Saccharomyces cerevisiae S288C', common: '', parent: 4932 },
  { taxId: 3702, scientific: 'Arabidopsis thaliana', common: 'thale cress', aliases: ['Arabidopsis'] },
  { taxId: 562, scientific: 'Escherichia coli', common: '', aliases: ['E. coli'] },
  { taxId: 83333, scientific: 'Escherichia coli K-12', common: '', parent: 562 },
  { taxId: 511145, scientific: 'Escherichia coli str. K-12 substr. MG1655', common: '', parent: 83333 },
];

const byId = new Map(BUILT_IN_TAXA.map((t) => [t.taxId, t]));
const byName = new Map<string, Taxon>();
for (const t of BUILT_IN_TAXA) {
  for (const n of [t.scientific, t.common, ...(t.aliases ?? [])]) if (n) byName.set(n.toLowerCase(), t);
}

export function builtInTaxon(taxId: number): Taxon | undefined {
  return byId.get(taxId);
}

/** A taxon by a name (scientific, common or alias, any case), by `txid9606`, or by its number. */
export function builtInTaxonByName(name: string): Taxon | undefined {
  const n = name.trim().toLowerCase();
  const id = /^(?:txid)?(\d+)$/.exec(n);
  if (id) return byId.get(Number(id[1]));
  return byName.get(n);
}

/** The taxon and every built-in taxon under it: a search for yeast includes the S288C strain. */
export function withDescendants(taxId: number): number[] {
  const out = [taxId];
  for (let i = 0; i < out.length; i++) {
    for (const t of BUILT_IN_TAXA) if (t.parent === out[i] && !out.includes(t.taxId)) out.push(t.taxId);
  }
  return out;
}
