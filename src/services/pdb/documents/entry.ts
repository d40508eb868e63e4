import { isoDate } from '../../../core/mmcif/block-reader.js';
import { citations } from './citation.js';
import { compact, copyCategories, revisions, round } from './common.js';
import { entitiesOf, polymerType, type StructureModel } from './model.js';

const METHOD: Record<string, string> = {
  'X-RAY DIFFRACTION': 'X-ray',
  'SOLUTION NMR': 'NMR',
  'SOLID-STATE NMR': 'NMR',
  'ELECTRON MICROSCOPY': 'EM',
  'ELECTRON CRYSTALLOGRAPHY': 'EM',
  'NEUTRON DIFFRACTION': 'Neutron',
};

export interface EntryDocument {
  doc: Record<string, unknown>;
  pubmedId: number | undefined;
  releaseDate: string | undefined;
}

/** The `entry` object: the archive's categories as the schema types them, and the RCSB's summaries. */
export function entryDocument(m: StructureModel, opts: { structureFactors: boolean }): EntryDocument {
  const { entry, id } = m;
  const doc: Record<string, unknown> = {};
  copyCategories(entry, 'entry', doc);
  const cites = citations(entry);
  if (cites.all.length > 0) doc.citation = cites.all;
  if (doc.entry === undefined) doc.entry = { id };

  const polymers = entitiesOf(m, 'polymer');
  const nonpolymers = entitiesOf(m, 'non-polymer');
  const branched = entitiesOf(m, 'branched');
  const water = entitiesOf(m, 'water');
  const assemblies = entry.table('pdbx_struct_assembly');
  const assemblyIds = Array.from({ length: assemblies.rows }, (_, r) => assemblies.str('id', r)).filter((v): v is string => !!v);

  doc.rcsb_entry_container_identifiers = compact({
    assembly_ids: assemblyIds.length ? assemblyIds : undefined,
    branched_entity_ids: branched.length ? branched.map((e) => e.id) : undefined,
    entity_ids: [...m.entities.keys()],
    entry_id: id,
    model_ids: m.modelIds.length ? m.modelIds : undefined,
    non_polymer_entity_ids: nonpolymers.length ? nonpolymers.map((e) => e.id) : undefined,
    polymer_entity_ids: polymers.length ? polymers.map((e) => e.id) : undefined,
    rcsb_id: id,
    water_entity_ids: water.length ? water.map((e) => e.id) : undefined,
    pubmed_id: cites.pubmedId,
  });

  const status = entry.table('pdbx_database_status');
  const { initial, latest } = revisions(entry);
  doc.rcsb_accession_info = compact({
    deposit_date: status.str('recvd_initial_deposition_date', 0) ? isoDate(status.str('recvd_initial_deposition_date', 0) as string) : undefined,
    has_released_experimental_data: opts.structureFactors ? 'Y' : 'N',
    initial_release_date: initial ? isoDate(initial) : undefined,
    major_revision: latest?.major,
    minor_revision: latest?.minor,
    revision_date: latest?.date ? isoDate(latest.date) : undefined,
    status_code: status.str('status_code', 0),
  });

  doc.rcsb_entry_info = entryInfo(m, assemblyIds.length);
  if (cites.primary) doc.rcsb_primary_citation = cites.primary;
  doc.rcsb_id = id;
  return { doc, pubmedId: cites.pubmedId, releaseDate: initial };
}

function methods(m: StructureModel): string[] {
  const t = m.entry.table('exptl');
  return Array.from({ length: t.rows }, (_, r) => t.str('method', r)).filter((v): v is string => !!v);
}

type Entities = ReturnType<typeof entitiesOf>;
type EntryBlock = StructureModel['entry'];

/** Instances and their monomers. */
function instanceCounts(m: StructureModel) {
  let polymerInstances = 0;
  let nonpolymerInstances = 0;
  let monomers = 0;
  let modeled = 0;
  let hydrogens = 0;
  let solventAtoms = 0;
  for (const a of m.asyms.values()) {
    const e = m.entities.get(a.entityId);
    hydrogens += a.hydrogens;
    if (!e) continue;
    if (e.kind === 'polymer') {
      polymerInstances++;
      monomers += e.seqLength;
      modeled += a.modeledResidues;
    } else if (e.kind === 'non-polymer') nonpolymerInstances++;
    else if (e.kind === 'water') solventAtoms += a.atoms;
  }
  return { polymerInstances, nonpolymerInstances, monomers, modeled, hydrogens, solventAtoms };
}

/** Daltons of every entity but water, times its instances. */
function depositedWeight(m: StructureModel): number {
  let weight = 0;
  for (const e of m.entities.values()) {
    if (e.kind === 'water' || e.formulaWeight === undefined) continue;
    weight += e.formulaWeight * Math.max(e.asyms.length, 1);
  }
  return weight;
}

/** Taxa are counted per polymer entity (two human chains of hemoglobin count two). */
function taxonomyCount(entry: EntryBlock, polymers: Entities): number {
  let count = 0;
  for (const e of polymers) {
    const taxa = new Set<string>();
    for (const cat of ['entity_src_gen', 'entity_src_nat', 'pdbx_entity_src_syn']) {
      const t = entry.table(cat);
      const item = cat === 'entity_src_gen' ? 'pdbx_gene_src_ncbi_taxonomy_id' : cat === 'entity_src_nat' ? 'pdbx_ncbi_taxonomy_id' : 'ncbi_taxonomy_id';
      for (const r of t.where('entity_id', e.id)) {
        const tax = t.str(item, r);
        if (tax) taxa.add(tax);
      }
    }
    count += taxa.size;
  }
  return count;
}

/** Bonds between molecules (struct_conn), and the non-polymer components bound by them. */
function connections(entry: EntryBlock, nonpolymers: Entities) {
  const conn = entry.table('struct_conn');
  let disulfide = 0;
  let covalent = 0;
  let metal = 0;
  const bound = new Set<string>();
  const nonpolyComps = new Set(nonpolymers.map((e) => e.compId).filter((c): c is string => !!c));
  for (let r = 0; r < conn.rows; r++) {
    const type = (conn.str('conn_type_id', r) ?? '').toLowerCase();
    const a1 = conn.str('ptnr1_label_asym_id', r);
    const a2 = conn.str('ptnr2_label_asym_id', r);
    if (type === 'disulf') disulfide++;
    else if (type === 'covale' && a1 !== a2) covalent++;
    else if (type === 'metalc') metal++;
    for (const side of ['ptnr1_label_comp_id', 'ptnr2_label_comp_id']) {
      const c = conn.str(side, r);
      if (c && nonpolyComps.has(c) && (type === 'covale' || type === 'metalc')) bound.add(c);
    }
  }
  return { disulfide, covalent, metal, bound };
}

/** Resolutions of refinement and EM reconstruction, and the diffraction's high-resolution limit. */
function resolutions(entry: EntryBlock) {
  const resolution: number[] = [];
  const refine = entry.table('refine');
  for (let r = 0; r < refine.rows; r++) {
    const v = refine.num('ls_d_res_high', r);
    if (v !== undefined) resolution.push(v);
  }
  const em = entry.table('em_3d_reconstruction');
  for (let r = 0; r < em.rows; r++) {
    const v = em.num('resolution', r);
    if (v !== undefined) resolution.push(v);
  }
  const reflnsHigh = entry.table('reflns').num('d_resolution_high', 0);
  const diffrnHigh =
    reflnsHigh !== undefined
      ? { provenance_source: 'Depositor assigned', value: reflnsHigh }
      : refine.num('ls_d_res_high', 0) !== undefined
        ? { provenance_source: 'From refinement resolution cutoff', value: refine.num('ls_d_res_high', 0) }
        : undefined;
  return { resolution, diffrnHigh };
}

function wavelengthsOf(entry: EntryBlock): number[] {
  const wavelengths: number[] = [];
  const rad = entry.table('diffrn_radiation_wavelength');
  for (let r = 0; r < rad.rows; r++) {
    const w = rad.num('wavelength', r);
    if (w !== undefined) wavelengths.push(w);
  }
  return wavelengths;
}

function softwarePrograms(entry: EntryBlock): Set<string> {
  const software = entry.table('software');
  const programs = new Set<string>();
  for (let r = 0; r < software.rows; r++) {
    const n = software.str('name', r);
    if (n) programs.add(n.toUpperCase());
  }
  return programs;
}

function entryInfo(m: StructureModel, assemblyCount: number): Record<string, unknown> {
  const { entry } = m;
  const polymers = entitiesOf(m, 'polymer');
  const nonpolymers = entitiesOf(m, 'non-polymer');
  const branched = entitiesOf(m, 'branched');
  const water = entitiesOf(m, 'water');
  const types = polymers.map((e) => polymerType(e.polyType));
  const count = (t: string) => types.filter((x) => x === t).length;
  const protein = count('Protein');
  const dna = count('DNA');
  const rna = count('RNA');
  const hybrid = count('NA-hybrid');
  const na = dna + rna + hybrid;

  const exptl = methods(m);
  const method = exptl.length > 1 ? 'Multiple methods' : (METHOD[(exptl[0] ?? '').toUpperCase()] ?? 'Other');

  const { polymerInstances, nonpolymerInstances, monomers, modeled, hydrogens, solventAtoms } = instanceCounts(m);
  const weight = depositedWeight(m);
  const weights = (list: Entities) => list.map((e) => e.formulaWeight).filter((w): w is number => w !== undefined);
  const pw = weights(polymers);
  const nw = weights(nonpolymers);
  const bw = weights(branched);
  const lengths = polymers.map((e) => e.seqLength);
  const { disulfide, covalent, metal, bound } = connections(entry, nonpolymers);
  const { resolution, diffrnHigh } = resolutions(entry);
  const wavelengths = wavelengthsOf(entry);
  const cis = entry.table('struct_mon_prot_cis').rows;
  const programs = softwarePrograms(entry);

  return compact({
    assembly_count: assemblyCount,
    branched_entity_count: branched.length,
    branched_molecular_weight_maximum: bw.length ? round(Math.max(...bw) / 1000, 2) : undefined,
    branched_molecular_weight_minimum: bw.length ? round(Math.min(...bw) / 1000, 2) : undefined,
    cis_peptide_count: cis,
    deposited_atom_count: m.atomCount,
    deposited_hydrogen_atom_count: hydrogens,
    deposited_model_count: m.modelIds.length,
    deposited_modeled_polymer_monomer_count: modeled,
    deposited_nonpolymer_entity_instance_count: nonpolymerInstances,
    deposited_polymer_entity_instance_count: polymerInstances,
    deposited_polymer_monomer_count: monomers,
    deposited_solvent_atom_count: solventAtoms,
    deposited_unmodeled_polymer_monomer_count: monomers - modeled,
    diffrn_radiation_wavelength_maximum: wavelengths.length ? Math.max(...wavelengths) : undefined,
    diffrn_radiation_wavelength_minimum: wavelengths.length ? Math.min(...wavelengths) : undefined,
    disulfide_bond_count: disulfide,
    entity_count: m.entities.size,
    experimental_method: method,
    experimental_method_count: exptl.length,
    inter_mol_covalent_bond_count: covalent,
    inter_mol_metalic_bond_count: metal,
    molecular_weight: round(weight / 1000, 2),
    na_polymer_entity_types: naTypes(dna, rna, hybrid),
    nonpolymer_bound_components: bound.size ? [...bound].sort() : undefined,
    nonpolymer_entity_count: nonpolymers.length,
    nonpolymer_molecular_weight_maximum: nw.length ? round(Math.max(...nw) / 1000, 2) : undefined,
    nonpolymer_molecular_weight_minimum: nw.length ? round(Math.min(...nw) / 1000, 2) : undefined,
    polymer_composition: composition(protein, dna, rna, hybrid, branched.length, polymers.length),
    polymer_entity_count: polymers.length,
    polymer_entity_count_DNA: dna,
    polymer_entity_count_RNA: rna,
    polymer_entity_count_nucleic_acid: na,
    polymer_entity_count_nucleic_acid_hybrid: hybrid,
    polymer_entity_count_protein: protein,
    polymer_entity_taxonomy_count: taxonomyCount(entry, polymers),
    polymer_molecular_weight_maximum: pw.length ? round(Math.max(...pw) / 1000, 2) : undefined,
    polymer_molecular_weight_minimum: pw.length ? round(Math.min(...pw) / 1000, 2) : undefined,
    polymer_monomer_count_maximum: lengths.length ? Math.max(...lengths) : undefined,
    polymer_monomer_count_minimum: lengths.length ? Math.min(...lengths) : undefined,
    representative_model: m.modelIds.length > 1 ? representativeModel(m) : undefined,
    resolution_combined: resolution.length ? [Math.min(...resolution)] : undefined,
    selected_polymer_entity_types: selectedTypes(protein, na, branched.length, polymers.length),
    software_programs_combined: programs.size ? [...programs].sort() : undefined,
    solvent_entity_count: water.length,
    structure_determination_methodology: 'experimental',
    structure_determination_methodology_priority: 10,
    diffrn_resolution_high: diffrnHigh,
  });
}

function representativeModel(m: StructureModel): number | undefined {
  const rep = m.entry.table('pdbx_nmr_representative').int('conformer_id', 0);
  return rep ?? m.modelIds[0];
}

export function naTypes(dna: number, rna: number, hybrid: number): string {
  if (hybrid > 0 && dna === 0 && rna === 0) return 'NA-hybrid (only)';
  if (dna > 0 && rna === 0 && hybrid === 0) return 'DNA (only)';
  if (rna > 0 && dna === 0 && hybrid === 0) return 'RNA (only)';
  if (dna > 0 && rna > 0 && hybrid === 0) return 'DNA/RNA (only)';
  return 'Other';
}

export function composition(protein: number, dna: number, rna: number, hybrid: number, branched: number, polymers: number): string {
  const na = dna + rna + hybrid;
  if (protein > 0 && na === 0 && protein === polymers) {
    if (branched > 0) return 'protein/oligosaccharide';
    return protein === 1 ? 'homomeric protein' : 'heteromeric protein';
  }
  if (protein > 0 && na > 0) return branched > 0 ? 'protein/NA/oligosaccharide' : 'protein/NA';
  if (protein === 0 && na > 0 && na === polymers) {
    if (branched > 0) return 'NA/oligosaccharide';
    if (hybrid > 0 && dna === 0 && rna === 0) return 'NA-hybrid';
    if (dna > 0 && rna === 0 && hybrid === 0) return 'DNA';
    if (rna > 0 && dna === 0 && hybrid === 0) return 'RNA';
    if (dna > 0 && rna > 0) return 'DNA/RNA';
    return 'other type composition';
  }
  if (polymers === 0 && branched > 0) return 'oligosaccharide';
  return 'other';
}

export function selectedTypes(protein: number, na: number, branched: number, polymers: number): string {
  if (protein > 0 && protein === polymers) return branched > 0 ? 'Protein/Oligosaccharide' : 'Protein (only)';
  if (na > 0 && na === polymers) return 'Nucleic acid (only)';
  if (protein > 0 && na > 0) return 'Protein/NA';
  if (polymers === 0 && branched > 0) return 'Oligosaccharide (only)';
  return 'Other';
}
