import type { Output } from '../output';
import { repoRoot } from '../../review/read-review';
import { CLAUDE_SETTINGS, planStopHook } from '../claude-hooks';
import { AGENTS_MD, installSkill, skillText, type Installed } from '../skill';

export interface SkillFlags {
  /** Any folder inside the repository (used by --install only). */
  repo: string;
  /** Write the skill where agents look instead of printing it. Default false. */
  install: boolean;
  /** With install: also add a Stop hook to Claude Code's .claude/settings.json. Default false. */
  hooks: boolean;
}

/** `involut skill`: prints the skill; `--install` writes it into the repository for Claude Code, Codex and others. */
export async function skill(flags: SkillFlags, out: Output): Promise<void> {
  if (!flags.install) {
    const text = await skillText();
    out.result({ skill: text }, () => [text.trimEnd()]);
    return;
  }
  const root = await repoRoot(flags.repo);
  // Planned first: a settings file we refuse to touch stops everything before any write.
  const hook = flags.hooks ? await planStopHook(root) : null;
  const installed = await installSkill(root);
  if (hook) {
    installed.push({
      path: CLAUDE_SETTINGS,
      for: 'Claude Code: a Stop hook that runs `involut rounds` and `involut check`',
      action: await hook.write(),
    });
  }
  out.result({ root, installed }, () => installed.map(describe));
}

function describe({ path, action, for: agents }: Installed): string {
  if (path === CLAUDE_SETTINGS) {
    if (action === 'unchanged') return `${path} already has the Involut Stop hook.`;
    const done = action === 'created' ? 'Created' : 'Added the Involut Stop hook to';
    return `${done} ${path}: when Claude Code stops, it runs \`involut rounds\` then \`involut check\`; other settings are kept.`;
  }
  if (action === 'unchanged') return `${path} already has the current skill (${agents}).`;
  if (path === AGENTS_MD) {
    const done =
      action === 'created' ? 'Created AGENTS.md with the involut section' : 'Wrote the involut section into AGENTS.md';
    return `${done} (${agents}); text outside its markers is untouched.`;
  }
  return `${action === 'created' ? 'Created' : 'Updated'} ${path} (${agents}).`;
}
