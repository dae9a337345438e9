import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PromptChoice, Prompter } from '../../../commands/init/prompter.js';
import { repoRoot } from '../../support/cli-build.js';

/**
 * A scratch project for `agentlib init`: a temp dir whose node_modules holds only agentlib (the repo,
 * symlinked, resolving to dist/), as `npm install <checkout>` leaves a user's project. `init`
 * writes into subfolders of it; the written tools import nothing but agentlib.
 */
export function initProject(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-init-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'agentlib'), 'dir');
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A question the scripted prompter was asked. */
export interface AskedQuestion {
  kind: 'select' | 'input' | 'confirm';
  message: string;
  default: string | boolean | undefined;
  choices?: readonly PromptChoice[];
  validate?: (value: string) => true | string;
}

/** One scripted answer: a value, or `undefined` to accept the question's default. */
export type ScriptedAnswer = string | boolean | undefined;

/** A Prompter answering from a script, in order, and recording the questions. */
export function scriptedPrompter(answers: readonly ScriptedAnswer[]): Prompter & { asked: AskedQuestion[] } {
  const queue = [...answers];
  const asked: AskedQuestion[] = [];
  const next = (question: AskedQuestion): ScriptedAnswer => {
    asked.push(question);
    if (queue.length === 0) throw new Error(`unexpected question: ${question.message}`);
    const answer = queue.shift();
    return answer === undefined ? question.default : answer;
  };
  return {
    asked,
    select: async (q) => String(next({ kind: 'select', message: q.message, default: q.default, choices: q.choices })),
    input: async (q) => {
      const answer = String(next({ kind: 'input', message: q.message, default: q.default, ...(q.validate === undefined ? {} : { validate: q.validate }) }));
      const verdict = q.validate?.(answer) ?? true;
      if (verdict !== true) throw new Error(`scripted answer "${answer}" rejected: ${verdict}`);
      return answer;
    },
    confirm: async (q) => Boolean(next({ kind: 'confirm', message: q.message, default: q.default })),
  };
}
