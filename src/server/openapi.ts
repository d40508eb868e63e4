/**
 * An OpenAPI 3 document per service, generated from the routes it registers: every path with its
 * methods and path parameters, so that a reference UI (and any OpenAPI client) lists exactly what
 * this server answers. Where a service describes its operations (`reference`: summaries, query and
 * path parameters with examples from the demo data, the content types answered), those come first
 * and replace the bare paths of the routes they fall under; the other routes are listed as before.
 */
import type { OperationDoc, ParamDoc, ServiceModule } from '../services/types.js';

export interface RouteRecord {
  method: string;
  /** The route's path below the service's mount, in Fastify's syntax (`/studies/:nctId`). */
  path: string;
}

/** `/studies/:nctId` → `/studies/{nctId}`; a wildcard becomes `{path}`. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path
    .split('/')
    .map((seg) => {
      if (seg === '*') {
        params.push('path');
        return '{path}';
      }
      // `:name`, also inside a segment (`:id.json`), with an optional regex in parentheses.
      return seg.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\([^)]*\))?/g, (_m, name: string) => {
        params.push(name);
        return `{${name}}`;
      });
    })
    .join('/');
  return { path: out || '/', params };
}

/** A route's path as a pattern over request paths: `:name` one segment's worth, `*` anything. */
export function routePattern(path: string): RegExp {
  const source = path
    .split(/(:[A-Za-z_][A-Za-z0-9_]*(?:\([^)]*\))?|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** Whether a described operation's path falls under a route (its `{parameters}` standing for any value). */
export function describes(op: Pick<OperationDoc, 'path'>, route: RouteRecord): boolean {
  return routePattern(route.path).test(op.path.replace(/\{[^}]+\}/g, 'x'));
}

const OTHER = 'Other paths';
const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);
const BINARY = /^(image\/|application\/(pdf|octet-stream|ber-encoded))/;

function schemaOf(p: ParamDoc): Record<string, unknown> {
  return {
    type: p.type ?? 'string',
    ...(p.enum ? { enum: [...p.enum] } : {}),
    ...(p.default !== undefined ? { default: p.default } : {}),
  };
}

function parameter(p: ParamDoc): Record<string, unknown> {
  return {
    name: p.name,
    in: p.in,
    description: p.description,
    required: p.in === 'path' || p.required === true,
    schema: schemaOf(p),
    ...(p.example !== undefined ? { example: p.example } : {}),
  };
}

/** One described operation as OpenAPI; for POST its query parameters become the form body. */
function operation(op: OperationDoc, method: string): Record<string, unknown> {
  const params = op.params ?? [];
  const form = method === 'post' ? params.filter((p) => p.in === 'query') : [];
  const required = form.filter((p) => p.required).map((p) => p.name);
  return {
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.tag ? { tags: [op.tag] } : {}),
    parameters: params.filter((p) => !form.includes(p)).map(parameter),
    ...(form.length
      ? {
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  properties: Object.fromEntries(form.map((p) => [p.name, { ...schemaOf(p), description: p.description, ...(p.example !== undefined ? { example: p.example } : {}) }])),
                  ...(required.length ? { required } : {}),
                },
              },
            },
          },
        }
      : {}),
    responses: {
      '200': {
        description: op.needs ? `The answer, where the loaded data carries ${op.needs} (a 404 otherwise)` : 'The answer',
        content: Object.fromEntries(op.answers.map((t) => t.split(';')[0] as string).map((type) => [type, BINARY.test(type) ? { schema: { type: 'string', format: 'binary' } } : {}])),
      },
      default: { description: "An error, in the service's own format" },
    },
  };
}

export function openApiDocument(service: ServiceModule, routes: readonly RouteRecord[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const ref = service.reference;
  for (const op of ref?.operations ?? []) {
    for (const method of op.methods ?? ['get']) (paths[op.path] ??= {})[method] = operation(op, method);
  }
  const covered = (r: RouteRecord, method: string) => (ref?.operations ?? []).some((op) => (op.methods ?? ['get']).includes(method as 'get') && describes(op, r));
  let others = false;
  for (const r of [...routes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const method = r.method.toLowerCase();
    if (!METHODS.has(method) || r.path.startsWith('/openapi') || covered(r, method)) continue;
    others = true;
    const { path, params } = openApiPath(r.path);
    const item = (paths[path] ??= {});
    item[method] = {
      summary: `${r.method} ${path}`,
      ...(ref ? { tags: [OTHER] } : {}),
      ...(params.length ? { parameters: params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })) } : {}),
      responses: { default: { description: "The upstream service's answer" } },
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: service.title,
      version: '1',
      description: ref
        ? `${ref.description}\n\nThe operations biomirror serves, with examples from its demo data; other paths it answers are listed last, from its routes, with the real service's parameters.`
        : `The paths biomirror serves for ${service.title}, generated from its routes. Query parameters, bodies and responses are those of the real service, whose own documentation describes them.`,
    },
    servers: [{ url: serverUrl }],
    ...(ref
      ? {
          tags: [
            ...Object.entries(ref.tags ?? {}).map(([name, description]) => ({ name, description })),
            ...(others ? [{ name: OTHER, description: 'Listed from the routes, without a description' }] : []),
          ],
        }
      : {}),
    paths,
  };
}
