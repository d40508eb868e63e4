import type { Doc } from '../../store/pdb-data.js';
import type { ObjectKind } from '../../documents/index.js';
import type { GraphContext } from './context.js';

type Args = Record<string, unknown>;
type Root = (source: unknown, args: Args, ctx: GraphContext) => Promise<unknown> | unknown;
type Link = (source: Doc, args: Args, ctx: GraphContext) => Promise<unknown> | unknown;

const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
/** Plural root fields keep the order asked for and drop unknown ids, as the real service. */
const inOrder = (ids: string[], found: Map<string, Doc>, norm: (id: string) => string): Doc[] =>
  ids.map((id) => found.get(norm(id))).filter((d): d is Doc => d !== undefined);

const partNorm = (kind: ObjectKind) => (id: string) => {
  const sep = kind.endsWith('_instance') ? '.' : kind === 'assembly' ? '-' : '_';
  const i = id.indexOf(sep);
  return i > 0 ? `${id.slice(0, i).toUpperCase()}${sep}${id.slice(i + 1)}` : id;
};

function single(kind: ObjectKind, keyArg: string): Root {
  return async (_s, args, ctx) => (await ctx.data.part(kind, str(args.entry_id), str(args[keyArg]))) ?? null;
}

function plural(kind: ObjectKind, idsArg: string): Root {
  return async (_s, args, ctx) => {
    const ids = list(args[idsArg]);
    return inOrder(ids, await ctx.data.parts(kind, ids), partNorm(kind));
  };
}

export const ROOTS: Record<string, Root> = {
  entry: async (_s, args, ctx) => (await ctx.entry(str(args.entry_id))) ?? null,
  entries: async (_s, args, ctx) => {
    const ids = list(args.entry_ids);
    return inOrder(ids, await ctx.data.entries(ids), (i) => i.toUpperCase());
  },
  polymer_entity: single('polymer_entity', 'entity_id'),
  polymer_entities: plural('polymer_entity', 'entity_ids'),
  branched_entity: single('branched_entity', 'entity_id'),
  branched_entities: plural('branched_entity', 'entity_ids'),
  nonpolymer_entity: single('nonpolymer_entity', 'entity_id'),
  nonpolymer_entities: plural('nonpolymer_entity', 'entity_ids'),
  polymer_entity_instance: single('polymer_entity_instance', 'asym_id'),
  polymer_entity_instances: plural('polymer_entity_instance', 'instance_ids'),
  branched_entity_instance: single('branched_entity_instance', 'asym_id'),
  branched_entity_instances: plural('branched_entity_instance', 'instance_ids'),
  nonpolymer_entity_instance: single('nonpolymer_entity_instance', 'asym_id'),
  nonpolymer_entity_instances: plural('nonpolymer_entity_instance', 'instance_ids'),
  assembly: single('assembly', 'assembly_id'),
  assemblies: plural('assembly', 'assembly_ids'),
  chem_comp: async (_s, args, ctx) => (await ctx.chemComp(str(args.comp_id))) ?? null,
  chem_comps: async (_s, args, ctx) => {
    const out: Doc[] = [];
    for (const id of list(args.comp_ids)) {
      const d = await ctx.chemComp(id);
      if (d) out.push(d);
    }
    return out;
  },
  uniprot: async (_s, args, ctx) => (await ctx.data.uniprot(str(args.uniprot_id))) ?? null,
  pubmed: async (_s, args, ctx) => (typeof args.pubmed_id === 'number' ? ((await ctx.data.pubmed(args.pubmed_id)) ?? null) : null),
  // Interfaces, groups and group provenance are computed by the RCSB from the whole archive and
  // are not derived here: null and [] as for ids the service does not know.
  interfaces: () => [],
  entry_groups: () => [],
  polymer_entity_groups: () => [],
  nonpolymer_entity_groups: () => [],
};

const ids = (doc: Doc, container: string, key: string): string[] => list((doc[container] as Doc | undefined)?.[key]);
const entryOf = (doc: Doc, container: string): string => str((doc[container] as Doc | undefined)?.entry_id);
const orNull = <T>(xs: T[]): T[] | null => (xs.length ? xs : null);

function children(kind: ObjectKind, container: string): Link {
  return async (doc, _a, ctx) => {
    const entry = entryOf(doc, container);
    const asyms = ids(doc, container, 'asym_ids');
    const found = await ctx.data.parts(kind, asyms.map((a) => `${entry}.${a}`));
    return orNull(asyms.map((a) => found.get(`${entry}.${a}`)).filter((d): d is Doc => d !== undefined));
  };
}

function parent(kind: ObjectKind, container: string): Link {
  return async (doc, _a, ctx) => {
    const c = doc[container] as Doc | undefined;
    return (await ctx.data.part(kind, str(c?.entry_id), str(c?.entity_id))) ?? null;
  };
}

function comps(container: string, key: string): Link {
  return async (doc, _a, ctx) => {
    const out: Doc[] = [];
    for (const id of ids(doc, container, key)) {
      const d = await ctx.chemComp(id);
      if (d) out.push(d);
    }
    return orNull(out);
  };
}

function entryParts(kind: ObjectKind): Link {
  return async (doc, _a, ctx) => orNull(await ctx.once(`${kind}:${str(doc.rcsb_id)}`, () => ctx.data.partsOfEntry(str(doc.rcsb_id), kind)));
}

function assemblyInstances(kind: ObjectKind): Link {
  return async (doc, _a, ctx) => {
    const entry = entryOf(doc, 'rcsb_assembly_container_identifiers');
    const gens = (doc.pdbx_struct_assembly_gen as Doc[] | undefined) ?? [];
    const asyms = [...new Set(gens.flatMap((g) => list(g.asym_id_list)))];
    const found = await ctx.data.parts(kind, asyms.map((a) => `${entry}.${a}`));
    return orNull(asyms.map((a) => found.get(`${entry}.${a}`)).filter((d): d is Doc => d !== undefined));
  };
}

const toEntry =
  (container: string): Link =>
  async (doc, _a, ctx) =>
    (await ctx.entry(entryOf(doc, container))) ?? null;

export const LINKS: Record<string, Record<string, Link>> = {
  CoreEntry: {
    polymer_entities: entryParts('polymer_entity'),
    nonpolymer_entities: entryParts('nonpolymer_entity'),
    branched_entities: entryParts('branched_entity'),
    assemblies: entryParts('assembly'),
    pubmed: async (doc, _a, ctx) => (await ctx.data.pubmedOfEntry(str(doc.rcsb_id))) ?? null,
  },
  CorePolymerEntity: {
    entry: toEntry('rcsb_polymer_entity_container_identifiers'),
    polymer_entity_instances: children('polymer_entity_instance', 'rcsb_polymer_entity_container_identifiers'),
    chem_comp_monomers: comps('rcsb_polymer_entity_container_identifiers', 'chem_comp_monomers'),
    chem_comp_nstd_monomers: comps('rcsb_polymer_entity_container_identifiers', 'chem_comp_nstd_monomers'),
    uniprots: async (doc, _a, ctx) => {
      const c = doc.rcsb_polymer_entity_container_identifiers as Doc | undefined;
      return orNull(await ctx.data.uniprotOfEntity(str(c?.entry_id), str(c?.entity_id)));
    },
  },
  CoreNonpolymerEntity: {
    entry: toEntry('rcsb_nonpolymer_entity_container_identifiers'),
    nonpolymer_entity_instances: children('nonpolymer_entity_instance', 'rcsb_nonpolymer_entity_container_identifiers'),
    nonpolymer_comp: async (doc, _a, ctx) => {
      const c = doc.rcsb_nonpolymer_entity_container_identifiers as Doc | undefined;
      return (await ctx.chemComp(str(c?.nonpolymer_comp_id))) ?? null;
    },
  },
  CoreBranchedEntity: {
    entry: toEntry('rcsb_branched_entity_container_identifiers'),
    branched_entity_instances: children('branched_entity_instance', 'rcsb_branched_entity_container_identifiers'),
    chem_comp_monomers: comps('rcsb_branched_entity_container_identifiers', 'chem_comp_monomers'),
  },
  CorePolymerEntityInstance: { polymer_entity: parent('polymer_entity', 'rcsb_polymer_entity_instance_container_identifiers') },
  CoreNonpolymerEntityInstance: { nonpolymer_entity: parent('nonpolymer_entity', 'rcsb_nonpolymer_entity_instance_container_identifiers') },
  CoreBranchedEntityInstance: { branched_entity: parent('branched_entity', 'rcsb_branched_entity_instance_container_identifiers') },
  CoreAssembly: {
    entry: toEntry('rcsb_assembly_container_identifiers'),
    polymer_entity_instances: assemblyInstances('polymer_entity_instance'),
    nonpolymer_entity_instances: assemblyInstances('nonpolymer_entity_instance'),
    branched_entity_instances: assemblyInstances('branched_entity_instance'),
  },
};
