import type { z } from 'zod';
import type { McpContext } from '../context.js';
import type { Page } from '../result.js';

/** One tool: its input fields (zod, as the SDK wants), the service it reads, and how it reads it. */
export interface ToolSpec {
  name: string;
  title: string;
  /** Says when to use it: an agent picks tools by their descriptions. */
  description: string;
  service: string;
  input: Record<string, z.ZodType>;
  run(ctx: McpContext, args: Record<string, unknown>): Promise<Page>;
}

export const enc = encodeURIComponent;

/** An argument's string value, or undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
