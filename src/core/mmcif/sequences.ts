/** Polymer entities with their chains, names, source organisms and canonical sequences (for FASTA). */
import type { CifBlock, CifFile } from 'molstar/lib/mol-io/reader/cif.js';
import { firstBlock } from './parse.js';
import { col } from './table.js';

export interface PolymerSequence {
  entityId: string;
  /** label_asym_id with the author's id, in struct_asym order. */
  chains: { label: string; auth: string }[];
  description: string;
  organisms: { name: string; taxId: string }[];
  /** One-letter canonical sequence, without line breaks. */
  sequence: string;
}

/** Organism per entity from whichever source category the entry uses (genetically manipulated, natural, synthetic). */
function organisms(block: CifBlock): Map<string, { name: string; taxId: string }[]> {
  const out = new Map<string, { name: string; taxId: string }[]>();
  const sources: [string, string, string][] = [
    ['entity_src_gen', 'pdbx_gene_src_scientific_name', 'pdbx_gene_src_ncbi_taxonomy_id'],
    ['entity_src_nat', 'pdbx_organism_scientific', 'pdbx_ncbi_taxonomy_id'],
    ['pdbx_entity_src_syn', 'organism_scientific', 'ncbi_taxonomy_id'],
  ];
  for (const [category, nameField, taxField] of sources) {
    const cat = block.categories[category];
    if (!cat) continue;
    const entity = col(cat, 'entity_id');
    const name = col(cat, nameField);
    const tax = col(cat, taxField);
    for (let r = 0; r < cat.rowCount; r++) {
      if (!name.str(r)) continue;
      const list = out.get(entity.str(r)) ?? [];
      if (!list.some((o) => o.name === name.str(r) && o.taxId === tax.str(r))) list.push({ name: name.str(r), taxId: tax.str(r) });
      out.set(entity.str(r), list);
    }
  }
  return out;
}

/** label -> auth chain id, from the polymer scheme (or atom_site when the scheme is absent). */
function authChains(block: CifBlock): Map<string, string> {
  const out = new Map<string, string>();
  const scheme = block.categories.pdbx_poly_seq_scheme;
  if (scheme) {
    const asym = col(scheme, 'asym_id');
    const strand = col(scheme, 'pdb_strand_id');
    for (let r = 0; r < scheme.rowCount; r++) if (!out.has(asym.str(r))) out.set(asym.str(r), strand.str(r) || asym.str(r));
    return out;
  }
  const site = block.categories.atom_site;
  if (site) {
    const label = col(site, 'label_asym_id');
    const auth = col(site, 'auth_asym_id');
    for (let r = 0; r < site.rowCount; r++) if (!out.has(label.str(r))) out.set(label.str(r), auth.str(r) || label.str(r));
  }
  return out;
}

export function polymerSequences(file: CifFile): PolymerSequence[] {
  const block = firstBlock(file);
  const poly = block.categories.entity_poly;
  if (!poly) return [];
  const entity = block.categories.entity;
  const descriptions = new Map<string, string>();
  if (entity) {
    const id = col(entity, 'id');
    const desc = col(entity, 'pdbx_description');
    for (let r = 0; r < entity.rowCount; r++) descriptions.set(id.str(r), desc.str(r));
  }
  const auth = authChains(block);
  const chainsOf = new Map<string, string[]>();
  const asym = block.categories.struct_asym;
  if (asym) {
    const id = col(asym, 'id');
    const ent = col(asym, 'entity_id');
    for (let r = 0; r < asym.rowCount; r++) chainsOf.set(ent.str(r), [...(chainsOf.get(ent.str(r)) ?? []), id.str(r)]);
  }
  const orgs = organisms(block);
  const eid = col(poly, 'entity_id');
  const can = col(poly, 'pdbx_seq_one_letter_code_can');
  const strands = col(poly, 'pdbx_strand_id');
  const out: PolymerSequence[] = [];
  for (let r = 0; r < poly.rowCount; r++) {
    const id = eid.str(r);
    let chains = (chainsOf.get(id) ?? []).map((label) => ({ label, auth: auth.get(label) ?? label }));
    // Without struct_asym, the author's strand ids are all there is.
    if (!chains.length)
      chains = strands
        .str(r)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => ({ label: s, auth: s }));
    out.push({
      entityId: id,
      chains,
      description: descriptions.get(id) ?? '',
      organisms: orgs.get(id) ?? [],
      sequence: can.str(r).replace(/\s+/g, ''),
    });
  }
  return out;
}
