/**
 * Request paths that a router and a URL parser would read differently. Node's parser and Fastify's
 * router take a path as it is written, while WHATWG URL parsing (which in-process dispatch and
 * many clients apply) removes dot segments, percent-encoded ones included, and reads a backslash
 * as a slash. A path that such parsing would change could pass a check made on one reading and be
 * answered on the other, so every entry point refuses it before routing. No service names a
 * resource `.` or `..`, and none has a route with a literal backslash.
 *
 * An encoded backslash (`%5C`) is left alone: no URL parser reads it as a separator, and a SMILES
 * string with a trans bond (`F/C=C\F`) travels in a PUG REST path that way.
 */

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** The path part of a request target: up to the query or a fragment. */
export function pathPart(target: string): string {
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

/**
 * Why a request target must be refused before routing, or undefined when its path reads the same
 * to every parser. `target` is the path with its query, as it appears on the request line.
 */
export function unsafePathReason(target: string): string | undefined {
  const path = pathPart(target);
  if (path.includes('\\')) return 'the path contains a backslash';
  for (const segment of path.split('/')) {
    if (DOT_SEGMENT.test(segment)) return `the path contains a "${segment}" segment`;
  }
  return undefined;
}

/** The path and query of an absolute-form request target (`http://host/path?q`), as written. */
export function rawPathOfAbsolute(target: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*(.*)$/i.exec(target);
  if (!m) return undefined;
  const rest = m[1] ?? '';
  return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
}
