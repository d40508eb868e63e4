/**
 * Skills in the Agent Skills format: a folder named like the skill, holding SKILL.md (YAML
 * frontmatter with `name` and `description`, then Markdown), `scripts/` and optionally
 * `references/` and `assets/`. Folders are read once at start; a skill that breaks a rule is
 * reported and left out, never fatal.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';

export type Language = 'python' | 'javascript' | 'typescript' | 'shell';

export interface Script {
  /** The name an execute request uses: the file name without its extension. */
  name: string;
  file: string;
  language: Language;
  /** The script's own usage line (a leading `Usage:` comment or docstring line), if it has one. */
  usage: string | undefined;
  /** Absolute path, resolved (symlinks followed) and checked to lie inside the skill folder. */
  path: string;
}

export interface Skill {
  name: string;
  description: string;
  license: string | undefined;
  compatibility: string | undefined;
  metadata: Record<string, string>;
  allowedTools: string[] | undefined;
  frontmatter: Record<string, unknown>;
  body: string;
  dir: string;
  scripts: Map<string, Script>;
  references: string[];
  /** Environment variables of the server handed to this skill's runs (`metadata.env`). */
  env: string[];
}

export interface SkillProblem {
  folder: string;
  problem: string;
}

export interface SkillSet {
  skills: Map<string, Skill>;
  problems: SkillProblem[];
}

/** Names of skills and scripts: lower-case letters, digits and single inner hyphens (or underscores, for scripts). */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SCRIPT_NAME = /^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/;

const LANGUAGES: Record<string, Language> = {
  '.py': 'python',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.sh': 'shell',
};

const MAX_SKILL_MD = 256 * 1024;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

function extensionOf(file: string): string {
  const i = file.lastIndexOf('.');
  return i <= 0 ? '' : file.slice(i);
}

/** The first `Usage:` line in the head of a script (a comment or a docstring). */
function usageOf(path: string): string | undefined {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const m = /^[\s#/*"'`-]*usage:\s*(.+?)\s*(?:\*\/|"""|''')?\s*$/im.exec(buf.subarray(0, n).toString('utf8'));
    return m?.[1];
  } finally {
    closeSync(fd);
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
}

/** SKILL.md split into its frontmatter (parsed) and body. */
export function splitSkillMd(text: string): { frontmatter: Record<string, unknown>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!m) throw new Error('SKILL.md does not start with a --- frontmatter block');
  const fm: unknown = parseYaml(m[1] ?? '', { maxAliasCount: 10 });
  if (typeof fm !== 'object' || fm === null || Array.isArray(fm)) throw new Error('the frontmatter is not a YAML mapping');
  return { frontmatter: fm as Record<string, unknown>, body: (m[2] ?? '').trim() };
}

function optionalString(fm: Record<string, unknown>, key: string, max: number): string | undefined {
  const v = fm[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new Error(`${key} must be a string`);
  if (v.length > max) throw new Error(`${key} is longer than ${max} characters`);
  return v;
}

/** Reads and checks one skill folder; throws with the reason when it breaks a rule. */
export function readSkill(dir: string, folderName: string): Skill {
  const root = realpathSync(dir);
  const mdPath = join(root, 'SKILL.md');
  const st = statSync(mdPath, { throwIfNoEntry: false });
  if (!st?.isFile()) throw new Error('no SKILL.md');
  if (st.size > MAX_SKILL_MD) throw new Error(`SKILL.md is larger than ${MAX_SKILL_MD} bytes`);
  const { frontmatter: fm, body } = splitSkillMd(readFileSync(mdPath, 'utf8'));

  const name = fm.name;
  if (typeof name !== 'string' || name.length < 1 || name.length > 64 || !SKILL_NAME.test(name)) {
    throw new Error('name must be 1-64 characters of a-z, 0-9 and single inner hyphens');
  }
  if (name !== folderName) throw new Error(`name "${name}" differs from its folder's name`);
  const description = fm.description;
  if (typeof description !== 'string' || description.trim() === '' || description.length > 1024) {
    throw new Error('description must be 1-1024 characters');
  }
  const metadata: Record<string, string> = {};
  if (fm.metadata !== undefined) {
    if (typeof fm.metadata !== 'object' || fm.metadata === null || Array.isArray(fm.metadata)) throw new Error('metadata must be a mapping');
    for (const [k, v] of Object.entries(fm.metadata)) {
      if (typeof v !== 'string') throw new Error(`metadata.${k} must be a string`);
      metadata[k] = v;
    }
  }
  const tools = fm['allowed-tools'];
  let allowedTools: string[] | undefined;
  if (typeof tools === 'string') allowedTools = tools.split(/\s+/).filter((t) => t !== '');
  else if (Array.isArray(tools) && tools.every((t) => typeof t === 'string')) allowedTools = tools as string[];
  else if (tools !== undefined) throw new Error('allowed-tools must be a string or a list of strings');
  const env = (metadata.env ?? '').split(/[\s,]+/).filter((e) => e !== '');
  for (const e of env) if (!ENV_NAME.test(e)) throw new Error(`metadata.env names "${e}", not an environment variable name`);

  const scripts = new Map<string, Script>();
  const scriptDir = join(root, 'scripts');
  if (statSync(scriptDir, { throwIfNoEntry: false })?.isDirectory()) {
    for (const file of readdirSync(scriptDir).sort()) {
      const language = LANGUAGES[extensionOf(file)];
      // Files starting with _ or . are the scripts' own modules (_common.py), not entry points.
      if (!language || file.startsWith('_') || file.startsWith('.')) continue;
      const scriptName = file.slice(0, file.length - extensionOf(file).length);
      if (!SCRIPT_NAME.test(scriptName)) throw new Error(`script file "${file}" has a name that cannot be requested`);
      const path = realpathSync(join(scriptDir, file));
      // A symlink out of the skill would expose a file the sandbox does not show.
      if (!inside(root, path)) throw new Error(`script "${file}" points outside the skill folder`);
      if (!statSync(path).isFile()) continue;
      // Two files of one name (run.py, run.sh): each is then known by its file name only.
      const clash = scripts.get(scriptName) ?? [...scripts.values()].find((x) => x.file.startsWith(`${scriptName}.`));
      if (clash) {
        scripts.delete(clash.name);
        scripts.set(clash.file, { ...clash, name: clash.file });
        scripts.set(file, { name: file, file, language, usage: usageOf(path), path });
        continue;
      }
      scripts.set(scriptName, { name: scriptName, file, language, usage: usageOf(path), path });
    }
  }
  const references: string[] = [];
  const refDir = join(root, 'references');
  if (statSync(refDir, { throwIfNoEntry: false })?.isDirectory()) {
    for (const f of readdirSync(refDir, { withFileTypes: true })) if (f.isFile()) references.push(`references/${f.name}`);
    references.sort();
  }
  return {
    name,
    description,
    license: optionalString(fm, 'license', 256),
    compatibility: optionalString(fm, 'compatibility', 500),
    metadata,
    allowedTools,
    frontmatter: fm,
    body,
    dir: root,
    scripts,
    references,
    env,
  };
}

/** Every skill of the folders, in order; the first of a name wins and later ones are reported. */
export function loadSkills(dirs: readonly string[]): SkillSet {
  const skills = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  for (const dir of dirs) {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      problems.push({ folder: dir, problem: `cannot read the skills folder: ${(err as Error).message}` });
      continue;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const folder = join(dir, e.name);
      try {
        const skill = readSkill(folder, e.name);
        if (skills.has(skill.name)) {
          problems.push({ folder, problem: `a skill named "${skill.name}" was already loaded from another folder` });
          continue;
        }
        skills.set(skill.name, skill);
      } catch (err) {
        problems.push({ folder, problem: (err as Error).message });
      }
    }
  }
  return { skills, problems };
}
