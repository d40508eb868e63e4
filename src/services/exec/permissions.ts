/**
 * Runs started by a root server use an unprivileged uid of their own, which reads the skill
 * folder as "other": the folder, its parents and its scripts must be open to others.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Skill } from './skills.js';

export function unreadableBySandbox(skill: Skill): string | undefined {
  for (let d = skill.dir; ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return `the sandbox's user cannot enter ${d} (make it o+x, or the skill folder o+rx)`;
    if (dirname(d) === d) break;
  }
  if ((statSync(skill.dir).mode & 0o004) === 0) return `the sandbox's user cannot list ${skill.dir} (make it o+r)`;
  for (const s of skill.scripts.values()) {
    if ((statSync(dirname(s.path)).mode & 0o001) === 0) return `the sandbox's user cannot enter ${dirname(s.path)} (make it o+x)`;
    if ((statSync(s.path).mode & 0o004) === 0) return `the sandbox's user cannot read ${s.file} (make it o+r)`;
  }
  return undefined;
}
