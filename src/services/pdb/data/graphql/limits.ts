import {
  GraphQLError,
  Kind,
  getNamedType,
  isListType,
  getNullableType,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type GraphQLField,
} from 'graphql';

/** Bounds on one query: nesting, and the work it can ask for (fields times the lists around them). */
export const QUERY_LIMITS = {
  /** The full introspection query of common clients nests about 14 deep. */
  maxDepth: 25,
  maxCost: 200_000,
  /** Assumed length of a list link (entities of an entry, instances of an entity). */
  listFactor: 10,
  maxQueryBytes: 256 * 1024,
};

function depthOf(set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): number {
  if (!set) return 0;
  let max = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) max = Math.max(max, 1 + depthOf(sel.selectionSet, fragments, seen));
    else if (sel.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, depthOf(sel.selectionSet, fragments, seen));
    else {
      const name = sel.name.value;
      if (seen.has(name)) continue;
      const frag = fragments.get(name);
      if (!frag) continue;
      seen.add(name);
      max = Math.max(max, depthOf(frag.selectionSet, fragments, seen));
      seen.delete(name);
    }
  }
  return max;
}

/** Rejects a query nested deeper than the bound (fragments followed, cycles cut). */
export function depthLimit(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    return {
      OperationDefinition(node) {
        const d = depthOf(node.selectionSet, fragments, new Set());
        if (d > max) context.reportError(new GraphQLError(`Query nests ${d} levels deep; the limit is ${max}`, { nodes: [node] }));
      },
    };
  };
}

/**
 * Estimated work: each field costs one per parent it is resolved for; a list multiplies what is
 * below it (by the number of ids given to a plural root field, else by a fixed factor).
 */
export function costLimit(max: number, variables: Record<string, unknown> | undefined) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const schema = context.getSchema();

    const cost = (set: SelectionSetNode | undefined, typeName: string, mult: number, seen: Set<string>): number => {
      if (!set) return 0;
      const type = schema.getType(typeName);
      const fields = type && 'getFields' in type ? (type.getFields() as Record<string, GraphQLField<unknown, unknown>>) : {};
      let total = 0;
      for (const sel of set.selections) {
        if (total > max) return total;
        if (sel.kind === Kind.FIELD) {
          const f = fields[sel.name.value];
          total += mult;
          if (!f || !sel.selectionSet) continue;
          let factor = 1;
          if (isListType(getNullableType(f.type))) {
            factor = QUERY_LIMITS.listFactor;
            for (const arg of sel.arguments ?? []) {
              if (arg.value.kind === Kind.LIST) factor = Math.max(1, arg.value.values.length);
              else if (arg.value.kind === Kind.VARIABLE) {
                const v = variables?.[arg.value.name.value];
                if (Array.isArray(v)) factor = Math.max(1, v.length);
              }
            }
          }
          total += cost(sel.selectionSet, getNamedType(f.type).name, mult * factor, seen);
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          total += cost(sel.selectionSet, sel.typeCondition?.name.value ?? typeName, mult, seen);
        } else {
          const name = sel.name.value;
          const frag = fragments.get(name);
          if (!frag || seen.has(name)) continue;
          seen.add(name);
          total += cost(frag.selectionSet, frag.typeCondition.name.value, mult, seen);
          seen.delete(name);
        }
      }
      return total;
    };

    return {
      OperationDefinition(node) {
        const root = node.operation === 'query' ? schema.getQueryType()?.name : undefined;
        if (!root) return;
        const c = cost(node.selectionSet, root, 1, new Set());
        if (c > max) context.reportError(new GraphQLError(`Query is too expensive: estimated cost ${c > max * 10 ? `over ${max * 10}` : c} exceeds the limit of ${max}`, { nodes: [node] }));
      },
    };
  };
}
