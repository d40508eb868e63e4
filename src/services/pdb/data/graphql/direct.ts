/**
 * The common query, `entry` or `entries` with fields of the stored documents only, answered by
 * walking the documents along the query rather than through the general executor, which spends
 * most of a 100-entry query's time on per-field bookkeeping. Only queries whose answer cannot
 * differ are taken: one operation with no variables, fragments or directives, one root field,
 * no field with arguments or a resolver of its own, no response key twice in a selection. Anything
 * else, and any value the general executor would report an error for (a null where the schema
 * says non-null, a value a scalar refuses), is left to the general executor, which answers it
 * whole.
 */
import {
  Kind,
  getArgumentValues,
  getNamedType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { GraphContext } from './context.js';
import { ROOTS } from './resolvers.js';

/** A compiled selection: each response key with its field, or `__typename`. */
interface Selected {
  key: string;
  name: string;
  type: GraphQLOutputType;
  /** The selection of an object-typed field. */
  fields?: Selected[];
  typename?: string;
}

interface Plan {
  /** The operation's name, which a request's operationName must match. */
  name: string | undefined;
  root: Selected;
  args: Record<string, unknown>;
}

const DIRECT_ROOTS = new Set(['entry', 'entries']);
const plans = new WeakMap<DocumentNode, Plan | null>();

class Bail extends Error {}
const BAIL = new Bail();

function selectionOf(type: GraphQLObjectType, set: SelectionSetNode): Selected[] | undefined {
  const out: Selected[] = [];
  const keys = new Set<string>();
  for (const s of set.selections) {
    if (s.kind !== Kind.FIELD || s.directives?.length || s.arguments?.length) return undefined;
    const key = s.alias?.value ?? s.name.value;
    if (keys.has(key)) return undefined;
    keys.add(key);
    if (s.name.value === '__typename') {
      out.push({ key, name: s.name.value, type: type, typename: type.name });
      continue;
    }
    const field = type.getFields()[s.name.value];
    if (!field || field.resolve) return undefined;
    const sel = fieldSelection(key, field, s);
    if (!sel) return undefined;
    out.push(sel);
  }
  return out;
}

function fieldSelection(key: string, field: GraphQLField<unknown, unknown>, node: FieldNode): Selected | undefined {
  const named = getNamedType(field.type);
  if (isLeafType(named)) return node.selectionSet ? undefined : { key, name: field.name, type: field.type };
  if (!isObjectType(named) || !node.selectionSet) return undefined;
  const fields = selectionOf(named, node.selectionSet);
  return fields ? { key, name: field.name, type: field.type, fields } : undefined;
}

function compile(schema: GraphQLSchema, doc: DocumentNode): Plan | null {
  const [op, ...more] = doc.definitions;
  if (more.length || op?.kind !== Kind.OPERATION_DEFINITION || op.operation !== 'query') return null;
  if (op.variableDefinitions?.length || op.directives?.length) return null;
  const [node, ...others] = op.selectionSet.selections;
  if (others.length || node?.kind !== Kind.FIELD || node.directives?.length || !DIRECT_ROOTS.has(node.name.value)) return null;
  const query = schema.getQueryType();
  const field = query?.getFields()[node.name.value];
  if (!field) return null;
  const named = getNamedType(field.type);
  if (!isObjectType(named) || !node.selectionSet) return null;
  const fields = selectionOf(named, node.selectionSet);
  if (!fields) return null;
  let args: Record<string, unknown>;
  try {
    args = getArgumentValues(field, node, {});
  } catch {
    return null;
  }
  return { name: op.name?.value, root: { key: node.alias?.value ?? node.name.value, name: node.name.value, type: field.type, fields }, args };
}

/** A value completed as the general executor does for these types; Bail where it would report an error. */
function complete(type: GraphQLOutputType, value: unknown, sel: Selected): unknown {
  if (isNonNullType(type)) {
    const v = complete(type.ofType, value, sel);
    if (v === null) throw BAIL;
    return v;
  }
  if (value === null || value === undefined) return null;
  if (isListType(type)) {
    if (!Array.isArray(value)) throw BAIL;
    return value.map((x) => complete(type.ofType, x, sel));
  }
  if (isLeafType(type)) {
    const s = type.serialize(value);
    if (s === null || s === undefined) throw BAIL;
    return s;
  }
  if (typeof value !== 'object' || !sel.fields) throw BAIL;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of sel.fields) {
    if (f.typename !== undefined) {
      out[f.key] = f.typename;
      continue;
    }
    const v = source[f.name];
    // The general executor calls a function it finds there; documents hold none.
    if (typeof v === 'function') throw BAIL;
    out[f.key] = complete(f.type, v, f);
  }
  return out;
}

/** Queries this path has answered in this process (tests check which path a query took). */
export const directAnswers = { count: 0 };

/** The `data` of the query when it is one this path answers, else undefined. */
export async function answerDirect(schema: GraphQLSchema, doc: DocumentNode, operationName: string | undefined, ctx: GraphContext): Promise<Record<string, unknown> | undefined> {
  let plan = plans.get(doc);
  if (plan === undefined) plans.set(doc, (plan = compile(schema, doc)));
  if (!plan || (operationName !== undefined && plan.name !== operationName)) return undefined;
  const resolve = ROOTS[plan.root.name];
  if (!resolve) return undefined;
  try {
    const value = await resolve(undefined, plan.args, ctx);
    const data = { [plan.root.key]: complete(plan.root.type, value, plan.root) };
    directAnswers.count++;
    return data;
  } catch {
    // Whatever went wrong, the general executor answers (and reports it as it does).
    return undefined;
  }
}
