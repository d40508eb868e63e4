import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpContext } from '../context.js';
import type { Page } from '../result.js';

/** One tool: its input fields (zod, as the SDK wants), the service it reads, and how it reads it. */
export interface ToolSpec {
  name: string;
  title: string;
  /** Says when to use it: an agent picks tools by their descriptions. */
  description: string;
  service: string;
  /** False for a service that loads no data (the skills are files): an empty answer is then no sign of an empty mirror. */
  needsData?: boolean;
  input: Record<string, z.ZodType>;
  /** Where the tool differs from the read-only, idempotent, closed-world default. */
  annotations?: Partial<ToolAnnotations>;
  run(ctx: McpContext, args: Record<string, unknown>): Promise<Page>;
}

export const enc = encodeURIComponent;

/** An argument's string value, or undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `limit` and `cursor`, the paging arguments of every list tool. */
export const paging = (max = 50, fallback = 10) => ({
  limit: z.number().int().min(1).max(max).default(fallback).describe('records per page'),
  cursor: z.string().max(2000).optional().describe('next_cursor of a previous answer'),
});
