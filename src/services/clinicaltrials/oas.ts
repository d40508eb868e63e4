/** The registry's own OpenAPI document, vendored beside this module (reference/SOURCES.md), read once. */
import { readFile } from 'node:fs/promises';
import { sourceUrl } from '../../core/files/project.js';

const OAS = sourceUrl('services/clinicaltrials/reference/ctg-oas-v2.yaml');
let oas: Promise<string> | undefined;

export const registryDocument = (): Promise<string> => (oas ??= readFile(OAS, 'utf8'));
