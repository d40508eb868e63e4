import { ncbiTools } from './ncbi.js';
import { otherTools } from './others.js';
import { pubchemTools } from './pubchem.js';
import { structureTools } from './structures.js';
import { trialTools } from './trials.js';
import type { ToolSpec } from './types.js';

/** Every tool, in the order an agent sees them. */
export const TOOLS: readonly ToolSpec[] = [...trialTools, ...ncbiTools, ...pubchemTools, ...otherTools.slice(0, 2), structureTools[0] as ToolSpec, ...otherTools.slice(2, 3), structureTools[1] as ToolSpec, ...otherTools.slice(3)];
