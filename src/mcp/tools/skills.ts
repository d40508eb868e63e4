/**
 * Running a skill's script: a POST to the execution service's own endpoint, so the same sandbox,
 * queue, limits and token rule hold as for an HTTP client. Nothing runs in this process.
 */
import { z } from 'zod';
import { ToolError, call, messageOf } from '../context.js';
import { enc, type ToolSpec } from './types.js';

type Obj = Record<string, unknown>;

// What of a run's output fits an answer: the start of stdout (results come first), the end of
// stderr (a traceback's last lines say what went wrong).
const STDOUT_BYTES = 5000;
const STDERR_BYTES = 1500;

function head(s: string, n: number): { text: string; cut: boolean } {
  const b = Buffer.from(s);
  return b.length <= n
    ? { text: s, cut: false }
    : {
        text: b
          .subarray(0, n)
          .toString('utf8')
          .replace(/\uFFFD$/, ''),
        cut: true,
      };
}

function tail(s: string, n: number): { text: string; cut: boolean } {
  const b = Buffer.from(s);
  return b.length <= n
    ? { text: s, cut: false }
    : {
        text: b
          .subarray(b.length - n)
          .toString('utf8')
          .replace(/^\uFFFD/, ''),
        cut: true,
      };
}

export const skillTools: ToolSpec[] = [
  {
    name: 'skills_run',
    title: 'Run a skill script',
    description:
      "Runs one script of a skill (see skills_list, skills_describe) with arguments in the execution service's sandbox, whose only way out is this server's own services; answers its exit status, stdout (first 5 KB) and stderr (last 1.5 KB). Use when a skill's script answers the question in one step.",
    service: 'exec',
    needsData: false,
    // It runs code (not read-only), but only reads the mirror: nothing is changed or deleted, and
    // it reaches nothing outside this server.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: {
      skill: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'skill must be a skill name such as pharmgkb'),
      script: z
        .string()
        .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'script must be a script name such as gene_drug_pairs')
        .describe('script name (or its file name)'),
      args: z.array(z.string().max(8192)).max(64).default([]).describe('command-line arguments, each a string'),
    },
    async run(ctx, a) {
      const skill = a.skill as string;
      const script = a.script as string;
      const token = ctx.execToken ? await ctx.execToken() : undefined;
      const u = await call(ctx, 'POST', `/exec/api/execute/${enc(skill)}/${enc(script)}`, {
        body: { args: a.args },
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      const body = u.json as { success?: boolean; returncode?: number; stdout?: string; stderr?: string; command?: string } | undefined;
      // A run that ended (even badly: a non-zero exit, killed for time or output) is the script's
      // answer; a run that was refused or never started is an error, in the service's words.
      const ran = body && typeof body.returncode === 'number' && body.returncode !== -1 && [200, 413, 504].includes(u.status);
      if (!ran) throw new ToolError(`${skill}/${script}: the execution service answered ${u.status}: ${messageOf(u)}`);
      const out = head(body.stdout ?? '', STDOUT_BYTES);
      const err = tail(body.stderr ?? '', STDERR_BYTES);
      const item: Obj = {
        skill,
        script,
        command: body.command,
        success: body.success === true,
        returncode: body.returncode,
        stdout: out.text,
        stderr: err.text,
        stdout_bytes: Buffer.byteLength(body.stdout ?? ''),
        stderr_bytes: Buffer.byteLength(body.stderr ?? ''),
        output_cut: out.cut || err.cut,
      };
      return { ids: [`${skill}/${script}`], items: [item], total: 1 };
    },
  },
];
