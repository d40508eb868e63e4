/**
 * The HTTP surface: health, the skills, their details, and execution. Names in paths are looked up
 * in the loaded skills (a map), never joined into a file path.
 */
import { bearerMatches, bearerNeeded } from '../../core/http/bearer.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ExecEngine } from './engine.js';
import { execError } from './errors.js';
import { QueueFull, QueueWaitTooLong } from './queue.js';
import { displayCommand } from './runner.js';
import { SCRIPT_NAME, SKILL_NAME, type Script, type Skill } from './skills.js';

const JSON_TYPE = 'application/json; charset=utf-8';

function scriptRecord(skill: Skill, s: Script) {
  return { name: s.name, file: `scripts/${s.file}`, language: s.language, usage: s.usage ?? null, command: displayCommand(skill, s, []) };
}

function skillRecord(skill: Skill) {
  return {
    name: skill.name,
    description: skill.description,
    license: skill.license ?? null,
    compatibility: skill.compatibility ?? null,
    metadata: skill.metadata,
    scripts: [...skill.scripts.values()].map((s) => scriptRecord(skill, s)),
  };
}

/** The arguments of a request body, or the reason it is refused. */
export function parseArgs(body: unknown, limits: { maxArgs: number; maxArgBytes: number }): string[] | string {
  if (body === undefined || body === null || body === '') return [];
  if (typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return 'the body must be a JSON object such as {"args": ["..."]}';
  const raw = (body as Record<string, unknown>).args;
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return '"args" must be an array of strings';
  if (raw.length > limits.maxArgs) return `at most ${limits.maxArgs} arguments are accepted, not ${raw.length}`;
  const args: string[] = [];
  let bytes = 0;
  for (const [i, a] of raw.entries()) {
    // Numbers and booleans are what an agent often means as text; anything else is a mistake.
    if (typeof a === 'number' && Number.isFinite(a)) args.push(String(a));
    else if (typeof a === 'boolean') args.push(String(a));
    else if (typeof a === 'string') args.push(a);
    else return `args[${i}] must be a string, not ${a === null ? 'null' : Array.isArray(a) ? 'an array' : typeof a}`;
    const last = args[args.length - 1] ?? '';
    if (last.includes('\0')) return `args[${i}] contains a NUL byte`;
    bytes += Buffer.byteLength(last);
  }
  if (bytes > limits.maxArgBytes) return `the arguments total ${bytes} bytes, more than ${limits.maxArgBytes}`;
  return args;
}

function find(engine: ExecEngine, skillName: string, scriptName?: string): { skill: Skill; script?: Script } {
  const skill = SKILL_NAME.test(skillName) ? engine.skills.skills.get(skillName) : undefined;
  if (!skill) throw execError(404, `no skill named "${skillName.slice(0, 100)}"; GET /api/skills lists them`);
  if (scriptName === undefined) return { skill };
  // The script's name, or its file name (search_genes or search_genes.py).
  let script = SCRIPT_NAME.test(scriptName) ? skill.scripts.get(scriptName) : undefined;
  script ??= skill.scripts.get(scriptName) ?? [...skill.scripts.values()].find((s) => s.file === scriptName);
  if (!script) {
    const known = [...skill.scripts.keys()].join(', ') || 'none';
    throw execError(404, `skill "${skill.name}" has no script named "${scriptName.slice(0, 100)}" (its scripts: ${known})`);
  }
  return { skill, script };
}

export interface Health {
  (engine: ExecEngine): Record<string, unknown>;
}

export function registerRoutes(app: FastifyInstance, engine: ExecEngine, health: Health): void {
  const send = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).type(JSON_TYPE).send(JSON.stringify(body));

  app.get('/api/health', (_req, reply) => send(reply, 200, health(engine)));

  app.get('/api/skills', (_req, reply) => {
    const skills = [...engine.skills.skills.values()].map(skillRecord);
    return send(reply, 200, { count: skills.length, skills });
  });

  app.get<{ Params: { skill_name: string } }>('/api/skills/:skill_name', (req, reply) => {
    const { skill } = find(engine, req.params.skill_name);
    return send(reply, 200, {
      ...skillRecord(skill),
      allowed_tools: skill.allowedTools ?? null,
      env: skill.env,
      frontmatter: skill.frontmatter,
      body: skill.body,
      references: skill.references,
    });
  });

  app.post<{ Params: { skill: string; script: string } }>('/api/execute/:skill/:script', async (req: FastifyRequest<{ Params: { skill: string; script: string } }>, reply) => {
    if (bearerNeeded(app, engine.settings.auth) && !bearerMatches(req.headers.authorization, engine.token)) {
      throw execError(401, 'a bearer token is needed to run scripts on this server (Authorization: Bearer <token>; the server prints it at start)', '', {
        'WWW-Authenticate': 'Bearer realm="biomirror-exec"',
      });
    }
    const { skill, script } = find(engine, req.params.skill, req.params.script);
    if (!script) throw execError(404, 'no script given');
    const args = parseArgs(req.body, engine.settings.limits);
    if (typeof args === 'string') throw execError(400, `bad request: ${args}`, displayCommand(skill, script, []));
    await engine.prepare();
    try {
      const outcome = await engine.queue.run((slot) => engine.runner.run(slot, skill, script, args));
      return await send(reply, outcome.status, outcome.body);
    } catch (err) {
      if (err instanceof QueueFull || err instanceof QueueWaitTooLong) {
        throw execError(503, `the run was not started: ${err.message}; retry later`, displayCommand(skill, script, args), { 'Retry-After': '5' });
      }
      throw err;
    }
  });
}
