/**
 * Files of biomirror itself, found the same way from the TypeScript sources (tests, `tsx`) and from
 * the build: this module sits three folders below the project's root as src/core/files/project.ts
 * and as dist/core/files/project.js.
 */
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../../../', import.meta.url);

/** A path below the project's root (package.json, skills/). */
export function projectPath(relative: string): string {
  return fileURLToPath(new URL(relative, ROOT));
}

/**
 * A file kept beside the code in src/ (demo data, DTDs, schemas, OpenAPI documents, plain-JavaScript
 * worker scripts): the build compiles TypeScript only and does not copy them, so both the sources
 * and the build read them from src/.
 */
export function sourcePath(relative: string): string {
  return fileURLToPath(sourceUrl(relative));
}

export function sourceUrl(relative: string): URL {
  return new URL(`src/${relative}`, ROOT);
}

/**
 * A compiled module in dist/ (TypeScript worker threads): a thread runs JavaScript, so the sources
 * under test start the build's copy too.
 */
export function builtPath(relative: string): string {
  return fileURLToPath(new URL(`dist/${relative}`, ROOT));
}
