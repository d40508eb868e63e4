/**
 * TypeScript scripts on a Node that cannot strip types (Node 20): compiled once, at start, with
 * the typescript package when the server has it, to a file bound into the run. Each script is
 * compiled alone (isolatedModules), so it should not import its sibling files.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Script, Skill } from './skills.js';

type Transpile = (input: string) => string;

let compiler: Transpile | null | undefined;

function loadCompiler(): Transpile | null {
  if (compiler !== undefined) return compiler;
  try {
    const ts = createRequire(import.meta.url)('typescript') as {
      transpileModule(input: string, o: { compilerOptions: Record<string, unknown> }): { outputText: string };
      ModuleKind: { ESNext: number };
      ScriptTarget: { ES2022: number };
    };
    const compilerOptions = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
    compiler = (input) => ts.transpileModule(input, { compilerOptions }).outputText;
  } catch {
    compiler = null;
  }
  return compiler;
}

/** Compiles every TypeScript script of the skills into `dir`; returns where each went. */
export function transpileScripts(skills: Iterable<Skill>, dir: string): Map<Script, string> {
  const out = new Map<Script, string>();
  for (const skill of skills) {
    for (const script of skill.scripts.values()) {
      if (script.language !== 'typescript') continue;
      const ts = loadCompiler();
      if (!ts) continue;
      const target = join(dir, 'ts', skill.name);
      mkdirSync(target, { recursive: true, mode: 0o755 });
      const file = join(target, `${script.name}.mjs`);
      writeFileSync(file, ts(readFileSync(script.path, 'utf8')), { mode: 0o644 });
      out.set(script, file);
    }
  }
  return out;
}
