/**
 * An OpenAPI 3 document per service, generated from the routes it registers: every path with its
 * methods and path parameters, so that a reference UI (and any OpenAPI client) lists exactly what
 * this server answers. The services' parameters beyond the path are documented by the real
 * services themselves; the document says so and links there.
 */
import type { ServiceModule } from '../services/types.js';

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

const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);

export function openApiDocument(service: ServiceModule, routes: readonly RouteRecord[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of [...routes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const method = r.method.toLowerCase();
    if (!METHODS.has(method) || r.path.startsWith('/openapi')) continue;
    const { path, params } = openApiPath(r.path);
    const item = (paths[path] ??= {});
    item[method] = {
      summary: `${r.method} ${path}`,
      ...(params.length
        ? { parameters: params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })) }
        : {}),
      responses: { default: { description: "The upstream service's answer" } },
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: service.title,
      version: '1',
      description: `The paths biomirror serves for ${service.title}, generated from its routes. Query parameters, bodies and responses are those of the real service, whose own documentation describes them.`,
    },
    servers: [{ url: serverUrl }],
    paths,
  };
}
