/** The registry's own OpenAPI document, vendored beside this module (reference/SOURCES.md), read once. */
import { readFile } from 'node:fs/promises';

const OAS = new URL('../../../src/services/clinicaltrials/reference/ctg-oas-v2.yaml', import.meta.url);
let oas: Promise<string> | undefined;

export const registryDocument = (): Promise<string> => (oas ??= readFile(OAS, 'utf8'));
