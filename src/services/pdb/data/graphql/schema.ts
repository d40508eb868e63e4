import {
  GraphQLScalarType,
  __Type,
  buildClientSchema,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { introspectionText } from '../../documents/schema.js';
import type { Doc } from '../../store/pdb-data.js';
import type { GraphContext } from './context.js';
import { LINKS, ROOTS } from './resolvers.js';

let built: GraphQLSchema | undefined;

/**
 * The Data API's own GraphQL schema, rebuilt from its published introspection, so that field names,
 * types, arguments and introspection answers are the real service's. Resolvers are attached to the
 * root fields and to the links between objects; every other field reads the stored document's key
 * of the same name (the documents use the schema's names).
 */
export function dataSchema(): GraphQLSchema {
  if (built) return built;
  const intro = JSON.parse(introspectionText()) as { data: IntrospectionQuery };
  const schema = buildClientSchema(intro.data, { assumeValid: true });
  const query = schema.getQueryType();
  if (!query) throw new Error('the Data API schema has no query type');
  for (const [name, field] of Object.entries(query.getFields())) {
    const resolve = ROOTS[name];
    field.resolve = (resolve ?? (() => null)) as GraphQLFieldResolver<unknown, GraphContext>;
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type === query || type.name.startsWith('__')) continue;
    const links = LINKS[type.name];
    for (const [name, field] of Object.entries(type.getFields())) {
      const link = links?.[name];
      if (link) field.resolve = link as GraphQLFieldResolver<unknown, GraphContext>;
      else if (isLinkType(field.type.toString())) field.resolve = () => null;
    }
  }
  const date = schema.getType('Date');
  // Stored documents write instants as the REST API does (`+0000`); GraphQL writes them with `Z`.
  if (date instanceof GraphQLScalarType) date.serialize = (v: unknown) => (typeof v === 'string' ? v.replace(/\+0000$/, 'Z') : v);
  answerBothSpellings();
  built = schema;
  return schema;
}

/**
 * The real service (graphql-java) names a scalar's specification link `__Type.specifiedByUrl`, the
 * spelling before the October 2021 GraphQL specification; graphql-js names it `specifiedByURL`.
 * Clients generated from the real service's introspection ask for the first: both are answered.
 * `__Type` is graphql-js's own introspection type, shared by every schema of the process; the
 * field is added to it once, and only this service serves GraphQL.
 */
function answerBothSpellings(): void {
  const fields = __Type.getFields();
  const current = fields.specifiedByURL;
  if (current && !fields.specifiedByUrl) fields.specifiedByUrl = { ...current, name: 'specifiedByUrl' };
}

/** A field typed by another object of the API (a link): unresolved links answer null. */
function isLinkType(type: string): boolean {
  return /\b(Core|Group)[A-Za-z]+\b/.test(type);
}

export type { Doc };
