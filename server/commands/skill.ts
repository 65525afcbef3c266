import type { Output } from '../output';
import { repoRoot } from '../read-review';
import { AGENTS_MD, installSkill, skillText, type Installed } from '../skill';

export interface SkillFlags {
  /** Any folder inside the repository (used by --install only). */
  repo: string;
  /** Write the skill where agents look instead of printing it. Default false. */
  install: boolean;
}

/** `involut skill`: prints the skill; `--install` writes it into the repository for Claude Code, Codex and others. */
export async function skill(flags: SkillFlags, out: Output): Promise<void> {
  if (!flags.install) {
    const text = await skillText();
    out.result({ skill: text }, () => [text.trimEnd()]);
    return;
  }
  const root = await repoRoot(flags.repo);
  const installed = await installSkill(root);
  out.result({ root, installed }, () => installed.map(describe));
}

function describe({ path, action, for: agents }: Installed): string {
  if (action === 'unchanged') return `${path} already has the current skill (${agents}).`;
  if (path === AGENTS_MD) {
    const done =
      action === 'created' ? 'Created AGENTS.md with the involut section' : 'Wrote the involut section into AGENTS.md';
    return `${done} (${agents}); text outside its markers is untouched.`;
  }
  return `${action === 'created' ? 'Created' : 'Updated'} ${path} (${agents}).`;
}
