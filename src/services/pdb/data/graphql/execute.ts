import { GraphQLError, execute, parse, specifiedRules, validate, type DocumentNode, type ExecutionResult } from 'graphql';
import type { PdbData } from '../../store/pdb-data.js';
import { GraphContext } from './context.js';
import { answerDirect } from './direct.js';
import { QUERY_LIMITS, costLimit, depthLimit } from './limits.js';
import { dataSchema } from './schema.js';

export interface GraphRequest {
  query: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** The error objects the Data API sends (graphql-java's shape: a classification beside the message). */
function format(e: GraphQLError, classification: string): Record<string, unknown> {
  const out: Record<string, unknown> = { message: e.message };
  if (e.locations) out.locations = e.locations;
  if (e.path) out.path = e.path;
  out.extensions = { classification };
  out.errorType = classification;
  return out;
}

const fail = (message: string, classification = 'ValidationError'): Record<string, unknown> => ({
  errors: [format(new GraphQLError(message), classification)],
  data: null,
});

const validated = new Map<string, DocumentNode>();

/** Runs one GraphQL request; always an object for an HTTP 200 body, errors in `errors[]`. */
export async function runGraphQL(data: PdbData, req: GraphRequest): Promise<Record<string, unknown>> {
  if (typeof req.query !== 'string' || req.query.trim() === '') return fail('A GraphQL request needs a "query" string');
  if (Buffer.byteLength(req.query) > QUERY_LIMITS.maxQueryBytes) return fail(`Query text is larger than ${QUERY_LIMITS.maxQueryBytes} bytes`);
  let variables: Record<string, unknown> | undefined;
  if (req.variables !== undefined && req.variables !== null) {
    let v = req.variables;
    if (typeof v === 'string') {
      try {
        v = v.trim() === '' ? {} : JSON.parse(v);
      } catch {
        return fail('"variables" is not valid JSON');
      }
    }
    if (typeof v !== 'object' || Array.isArray(v)) return fail('"variables" must be an object');
    variables = v as Record<string, unknown>;
  }
  const operationName = typeof req.operationName === 'string' && req.operationName !== '' ? req.operationName : undefined;

  // Clients repeat their queries (rcsbapi sends the same one per batch of ids): a query parsed and
  // validated once is not parsed again. The cost bound reads the variables, so they are part of the key.
  const key = `${req.query}\u0000${variables ? JSON.stringify(variables) : ''}`;
  let doc = validated.get(key);
  const schema = dataSchema();
  if (!doc) {
    try {
      doc = parse(req.query, { maxTokens: 50_000 });
    } catch (err) {
      const e = err instanceof GraphQLError ? err : new GraphQLError(String(err));
      return { errors: [format(e, 'InvalidSyntax')], data: null };
    }
    const errors = validate(schema, doc, [...specifiedRules, depthLimit(QUERY_LIMITS.maxDepth), costLimit(QUERY_LIMITS.maxCost, variables)], {
      maxErrors: 20,
    });
    if (errors.length > 0) return { errors: errors.map((e) => format(e, 'ValidationError')), data: null };
    if (key.length < 64 * 1024) {
      if (validated.size >= 500) validated.delete(validated.keys().next().value as string);
      validated.set(key, doc);
    }
  }

  const context = new GraphContext(data);
  const direct = await answerDirect(schema, doc, operationName, context);
  if (direct) return { data: direct };
  const result: ExecutionResult = await execute({
    schema,
    document: doc,
    contextValue: context,
    ...(variables ? { variableValues: variables } : {}),
    ...(operationName ? { operationName } : {}),
  });
  const out: Record<string, unknown> = {};
  // A resolver's own failure is reported without its internals (which could name tables or files).
  if (result.errors?.length)
    out.errors = result.errors.map((e) =>
      e.originalError && !(e.originalError instanceof GraphQLError)
        ? format(new GraphQLError(`Exception while fetching data (/${(e.path ?? []).join('/')})`, { path: e.path ?? [] }), 'DataFetchingException')
        : format(e, e.originalError ? 'DataFetchingException' : 'ValidationError'),
    );
  out.data = result.data ?? null;
  return out;
}
