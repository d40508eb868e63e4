/** NCBI's own OpenAPI documents of the Datasets API, vendored beside this module (reference/SOURCES.md), parsed once. */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { sourceUrl } from '../../core/files/project.js';

const at = (name: string) => sourceUrl(`services/datasets/reference/${name}`);
const parsed = new Map<string, Promise<Record<string, unknown>>>();

/** The document of one API version (`v2` or `v2alpha`), about 0.5 MB of YAML: read and parsed on first use. */
export function datasetsDocument(version: 'v2' | 'v2alpha'): Promise<Record<string, unknown>> {
  let doc = parsed.get(version);
  if (!doc) {
    doc = readFile(at(`datasets-openapi-${version}.yaml`), 'utf8').then((text) => parseYaml(text) as Record<string, unknown>);
    // A failed read is tried again on the next request.
    doc.catch(() => parsed.delete(version));
    parsed.set(version, doc);
  }
  return doc;
}
