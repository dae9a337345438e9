import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from '../../lib/agent/types.js';
import { ToolPolicy } from '../../lib/safety/tool-policy.js';
import { UsageError } from '../../cli/usage-error.js';
import type { CliIO } from '../../cli/output.js';

/** Hooks the interactive prompt uses to keep the terminal tidy (pause a spinner). */
export interface PromptHooks {
  beforePrompt?: () => void;
  afterPrompt?: () => void;
}

/**
 * How review-gated tool calls are answered in `agentlib run`:
 * - `--approve all` approves every call; `--approve none` (the default when stdin is not a
 *   terminal) denies every call, telling the model why;
 * - `--approve <policy.yaml>` answers with a ToolPolicy: calls it allows are approved, the rest denied;
 * - no `--approve` with a terminal on stdin asks the user for each call.
 */
export async function approvalHandler(mode: string | undefined, io: CliIO, hooks: PromptHooks = {}): Promise<ApprovalHandler> {
  if (mode === undefined) return io.stdin?.isTTY === true ? interactiveApprover(io, hooks) : denyAll('no approver (stdin is not a terminal); pass --approve all or a policy file to allow it');
  if (mode === 'all') return () => true;
  if (mode === 'none') return denyAll('tool approvals are off (--approve none)');
  const path = resolve(io.cwd ?? process.cwd(), mode);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`--approve expects all, none or a policy file; cannot read "${mode}".`);
  }
  const policy = ToolPolicy.fromYaml(text, { source: path });
  return (request: ApprovalRequest): ApprovalDecision => {
    const verdict = policy.evaluate(request.toolName, request.args);
    return verdict.decision === 'allow' ? true : { approved: false, feedback: `denied by ${mode}: ${verdict.reason}` };
  };
}

function denyAll(why: string): ApprovalHandler {
  return () => ({ approved: false, feedback: `The user's environment did not approve this call: ${why}.` });
}

/** Asks on the terminal: allow once (y), for this session (a), deny (n), deny with feedback (f). */
function interactiveApprover(io: CliIO, hooks: PromptHooks): ApprovalHandler {
  // One question at a time: parallel calls queue up behind each other.
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    const answer = queue.then(() => ask(request, io, hooks));
    queue = answer.catch(() => undefined);
    return answer;
  };
}

async function ask(request: ApprovalRequest, io: CliIO, hooks: PromptHooks): Promise<ApprovalDecision> {
  const { expand, input } = await import('@inquirer/prompts');
  const context = { input: io.stdin as NodeJS.ReadableStream, output: io.stderr as NodeJS.WritableStream, signal: request.signal, clearPromptOnDone: false };
  hooks.beforePrompt?.();
  try {
    const args = JSON.stringify(request.args);
    const choice = await expand(
      {
        message: `Allow ${request.toolName}(${args.length > 200 ? `${args.slice(0, 197)}…` : args})? ${request.reason}`,
        default: 'n',
        choices: [
          { key: 'y', name: 'Allow once', value: 'once' },
          { key: 'a', name: 'Allow for this session', value: 'session' },
          { key: 'n', name: 'Deny', value: 'deny' },
          { key: 'f', name: 'Deny and tell the model why', value: 'feedback' },
        ] as const,
      },
      context,
    );
    if (choice === 'once') return true;
    if (choice === 'session') return { approved: true, scope: 'session' };
    if (choice === 'deny') return false;
    const feedback = await input({ message: 'What should the model know?' }, context);
    return { approved: false, feedback };
  } finally {
    hooks.afterPrompt?.();
  }
}
