import { readFileSync } from 'node:fs';
import { sourcePath } from '../../../core/files/project.js';
import { itemKey, type FieldKind, type FieldPlan } from '../../../core/mmcif/block-reader.js';

/** The Data API's JSON Schemas, vendored as published (see schemas/README.md). */
const SCHEMA_DIR = sourcePath('services/pdb/documents/schemas/');

/** Objects `/rest/v1/schema/{object}` serves, each the name of a file in schemas/. */
export const SCHEMA_OBJECTS = [
  'entry',
  'polymer_entity',
  'branched_entity',
  'nonpolymer_entity',
  'polymer_entity_instance',
  'branched_entity_instance',
  'nonpolymer_entity_instance',
  'assembly',
  'chem_comp',
  'drugbank',
  'pubmed',
  'uniprot',
] as const;
export type SchemaObject = (typeof SCHEMA_OBJECTS)[number];

export function isSchemaObject(name: string): name is SchemaObject {
  return (SCHEMA_OBJECTS as readonly string[]).includes(name);
}

const texts = new Map<string, string>();

/** The schema document as published (read once). */
export function schemaText(object: SchemaObject): string {
  let t = texts.get(object);
  if (t === undefined) {
    t = readFileSync(`${SCHEMA_DIR}${object}.json`, 'utf8');
    texts.set(object, t);
  }
  return t;
}

export function introspectionText(): string {
  return readFileSync(`${SCHEMA_DIR}graphql-introspection.json`, 'utf8');
}

/** One mmCIF category as an object of the schema describes it. */
export interface CategoryPlan {
  /** The key of the category in the document (the schema's spelling). */
  name: string;
  /** An array of rows, or the first row as an object. */
  array: boolean;
  /** By `itemKey` of the mmCIF item name: mmCIF names are case-insensitive, JSON keys are not. */
  fields: Map<string, FieldPlan>;
  /** Keys the schema requires of a row (a row the archive gives without one of them is left out). */
  required: string[];
}

interface JsonSchemaNode {
  type?: string | string[];
  format?: string;
  required?: string[];
  items?: JsonSchemaNode;
  properties?: Record<string, JsonSchemaNode>;
}

const typeOf = (n: JsonSchemaNode | undefined): string | undefined => (Array.isArray(n?.type) ? n?.type[0] : n?.type);

function fieldKind(node: JsonSchemaNode): FieldKind | undefined {
  const t = typeOf(node);
  if (t === 'integer') return 'integer';
  if (t === 'number') return 'number';
  if (t === 'string') return node.format === 'date-time' || node.format === 'date' ? 'date' : 'string';
  // Items that mmCIF writes as one comma-separated value (pdbx_struct_assembly_gen.asym_id_list).
  if (t === 'array' && typeOf(node.items) === 'string') return 'list';
  return undefined;
}

const plans = new Map<SchemaObject, Map<string, CategoryPlan>>();

/**
 * The mmCIF categories an object carries as-is, with their items and types, read from its schema:
 * every key that is not computed by the RCSB (`rcsb_*`). Keyed by lower-cased category name.
 */
export function categoryPlans(object: SchemaObject): Map<string, CategoryPlan> {
  let out = plans.get(object);
  if (out) return out;
  out = new Map();
  const schema = JSON.parse(schemaText(object)) as JsonSchemaNode;
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    if (name.startsWith('rcsb_')) continue;
    const array = typeOf(node) === 'array';
    const row = array ? node.items : node;
    const props = row?.properties ?? {};
    const fields = new Map<string, FieldPlan>();
    for (const [f, fnode] of Object.entries(props)) {
      const kind = fieldKind(fnode);
      if (kind) fields.set(itemKey(f), { name: f, kind });
    }
    if (fields.size > 0) out.set(name.toLowerCase(), { name, array, fields, required: row?.required ?? [] });
  }
  plans.set(object, out);
  return out;
}
