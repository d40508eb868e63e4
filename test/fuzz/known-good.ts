/**
 * Requests each service answers with 200 from its demo data: the seeds the fuzz suite mutates, and
 * the requests that must still work, with the same answer, after every bad one. Every service in
 * the registry needs an entry here (the suite fails otherwise), so a new service is fuzzed from its
 * first day.
 */
export interface Seed {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  type?: string;
  headers?: Record<string, string>;
}

const form = 'application/x-www-form-urlencoded';
const bearer = { authorization: 'Bearer demo-client-token' };

export const KNOWN_GOOD: Record<string, Seed[]> = {
  clinicaltrials: [
    { method: 'GET', url: '/clinicaltrials/api/v2/studies?query.cond=melanoma&filter.overallStatus=RECRUITING&pageSize=5' },
    { method: 'GET', url: '/clinicaltrials/api/v2/studies?query.term=AREA[Phase]PHASE2&fields=NCT%20Number,Study%20Title&format=csv' },
    { method: 'GET', url: '/clinicaltrials/api/v2/studies/NCT02513394' },
    { method: 'GET', url: '/clinicaltrials/api/v2/version' },
  ],
  eutils: [
    { method: 'GET', url: '/eutils/entrez/eutils/esearch.fcgi?db=gene&term=BRCA1[gene]+AND+human[orgn]&retmode=json' },
    { method: 'GET', url: '/eutils/entrez/eutils/esummary.fcgi?db=gene&id=672' },
    { method: 'GET', url: '/eutils/entrez/eutils/efetch.fcgi?db=gene&id=672&retmode=xml' },
    { method: 'GET', url: '/eutils/entrez/eutils/elink.fcgi?dbfrom=gene&db=clinvar&id=672' },
    { method: 'GET', url: '/eutils/entrez/eutils/einfo.fcgi?db=clinvar' },
    { method: 'GET', url: '/eutils/eutils/dtd/20230808/esummary_gene.dtd' },
    { method: 'POST', url: '/eutils/entrez/eutils/esummary.fcgi', body: 'db=gene&id=672,7157', type: form },
  ],
  datasets: [
    { method: 'GET', url: '/datasets/v2alpha/gene/id/672' },
    { method: 'GET', url: '/datasets/v2alpha/gene/symbol/BRCA1/taxon/human' },
  ],
  pubchem: [
    { method: 'GET', url: '/pubchem/rest/pug/compound/cid/2244/property/MolecularFormula,MolecularWeight,InChIKey/JSON' },
    { method: 'GET', url: '/pubchem/rest/pug/compound/name/aspirin/cids/JSON' },
    { method: 'GET', url: '/pubchem/rest/pug/compound/cid/2244/synonyms/XML' },
    { method: 'GET', url: '/pubchem/rest/pug/compound/fastsimilarity_2d/smiles/CC(=O)OC1=CC=CC=C1C(=O)O/cids/JSON' },
    { method: 'GET', url: '/pubchem/rest/pug_view/data/compound/2244/JSON' },
    { method: 'GET', url: '/pubchem/rest/pug/assay/aid/9000001/description/JSON' },
    { method: 'POST', url: '/pubchem/rest/pug/compound/smiles/cids/JSON', body: 'smiles=CC(=O)OC1=CC=CC=C1C(=O)O', type: form },
    { method: 'GET', url: '/pubchem/rest/pug/compound/cid/2244/property/Volume3D,XStericQuadrupole3D,FeatureCount3D/JSON' },
    { method: 'GET', url: '/pubchem/rest/pug/compound/cid/2244/record/SDF?record_type=3d' },
  ],
  protocols: [
    { method: 'GET', url: '/protocols/api/v3/protocols?filter=public&key=protein', headers: bearer },
    { method: 'GET', url: '/protocols/api/v3/protocols/90001', headers: bearer },
    { method: 'GET', url: '/protocols/api/v3/protocols/90001/steps', headers: bearer },
    { method: 'GET', url: '/protocols/login' },
  ],
  gwas: [
    { method: 'GET', url: '/gwas/rest/api/singleNucleotidePolymorphisms/rs7903146/associations' },
    { method: 'GET', url: '/gwas/rest/api/studies/search/findByDiseaseTrait?diseaseTrait=Type%202%20diabetes' },
    { method: 'GET', url: '/gwas/summary-statistics/api/associations?p_upper=1e-5' },
  ],
  biorxiv: [
    { method: 'GET', url: '/biorxiv/details/biorxiv/2024-01-01/2024-01-31' },
    { method: 'GET', url: '/biorxiv/pubs/biorxiv/2024-01-01/2024-01-31/0' },
  ],
  pgx: [
    { method: 'GET', url: '/pgx/v1/gene/CYP2D6' },
    { method: 'GET', url: '/pgx/v1/data/gene?symbol=CYP2D6' },
  ],
  'rcsb-data': [
    { method: 'GET', url: '/rcsb/data/rest/v1/core/entry/4HHB' },
    { method: 'GET', url: '/rcsb/data/rest/v1/core/polymer_entity/4HHB/1' },
    { method: 'GET', url: '/rcsb/data/rest/v1/core/assembly/4HHB/1' },
    { method: 'GET', url: '/rcsb/data/rest/v1/core/chemcomp/HEM' },
    { method: 'POST', url: '/rcsb/data/graphql', body: JSON.stringify({ query: '{ entry(entry_id: "4HHB") { rcsb_id struct { title } polymer_entities { rcsb_id } } }' }), type: 'application/json' },
    { method: 'GET', url: `/rcsb/data/graphql?query=${encodeURIComponent('{ entries(entry_ids: ["4HHB"]) { rcsb_entry_info { resolution_combined } } }')}` },
  ],
  exec: [
    { method: 'GET', url: '/exec/api/health' },
    { method: 'GET', url: '/exec/api/skills' },
    { method: 'GET', url: '/exec/api/skills/ncbi-gene' },
    { method: 'POST', url: '/exec/api/execute/ncbi-gene/gene_summary', body: '{"args":["672"]}', type: 'application/json' },
  ],
  'rcsb-files': [
    { method: 'GET', url: '/rcsb/files/download/4HHB.cif' },
    { method: 'GET', url: '/rcsb/files/download/4hhb.pdb' },
    { method: 'GET', url: '/rcsb/files/download/4HHB.pdb1' },
    { method: 'GET', url: '/rcsb/files/download/4HHB-assembly1.cif' },
  ],
  'rcsb-www': [{ method: 'GET', url: '/rcsb/www/fasta/entry/4HHB' }],
  alphafold: [
    { method: 'GET', url: '/alphafold/api/prediction/P69905' },
    { method: 'GET', url: '/alphafold/api/uniprot/summary/P68871.json' },
    { method: 'GET', url: '/alphafold/files/AF-P01308-F1-confidence_v4.json?categories=letters' },
    { method: 'GET', url: '/alphafold/files/AF-P69905-F1-model_v4.cif' },
  ],
  'rcsb-search': [
    {
      method: 'POST',
      url: '/rcsb/search/rcsbsearch/v2/query',
      body: JSON.stringify({ query: { type: 'terminal', service: 'text', parameters: { attribute: 'exptl.method', operator: 'exact_match', value: 'X-RAY DIFFRACTION' } }, return_type: 'entry' }),
      type: 'application/json',
    },
    {
      method: 'POST',
      url: '/rcsb/search/rcsbsearch/v2/query',
      body: JSON.stringify({
        query: {
          type: 'group',
          logical_operator: 'and',
          nodes: [
            { type: 'terminal', service: 'full_text', parameters: { value: 'hemoglobin' } },
            { type: 'terminal', service: 'text', parameters: { attribute: 'rcsb_entry_info.resolution_combined', operator: 'less_or_equal', value: 2.5 } },
          ],
        },
        return_type: 'polymer_entity',
        request_options: { results_verbosity: 'verbose', facets: [{ name: 'Methods', aggregation_type: 'terms', attribute: 'exptl.method' }] },
      }),
      type: 'application/json',
    },
    {
      method: 'POST',
      url: '/rcsb/search/rcsbsearch/v2/query',
      body: JSON.stringify({
        query: { type: 'terminal', service: 'seqmotif', parameters: { value: 'V-L-S-P-x-D-K', pattern_type: 'prosite', sequence_type: 'protein' } },
        return_type: 'polymer_entity',
      }),
      type: 'application/json',
    },
    {
      method: 'GET',
      url: `/rcsb/search/rcsbsearch/v2/query?json=${encodeURIComponent(JSON.stringify({ query: { type: 'terminal', service: 'text', parameters: { attribute: 'rcsb_id', operator: 'in', value: ['4HHB'] } }, return_type: 'entry' }))}`,
    },
    { method: 'GET', url: '/rcsb/search/rcsbsearch/v2/metadata/schema' },
  ],
};
