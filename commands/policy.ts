import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ExitCode } from '../cli/exit-codes.js';
import { writeData, writeJson } from '../cli/output.js';
import { UsageError } from '../cli/usage-error.js';
import { decideToolCall } from '../lib/safety/decide-tool-call.js';
import { parsePolicyYaml } from '../lib/safety/policy-yaml.js';
import { ToolPolicy } from '../lib/safety/tool-policy.js';
import type { CommandArguments, CommandContext } from './command-module.js';

function parseArgsJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('--args must be a JSON object, e.g. \'{"path": "a.txt"}\'');
  return value as Record<string, unknown>;
}

/**
 * `agentlib policy test <file> --tool NAME --args '{…}'`: loads the policy file, decides the call
 * exactly as the agent loop would (deny → review → allow, `--requires-approval` raising allow to
 * review) and prints the decision, the reason and the rule. Exit 0 whatever the decision; 2 for a
 * bad file or arguments.
 */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  if (args.action !== 'test') throw new UsageError(`unknown policy action "${String(args.action)}"; expected "test" (agentlib policy test <file> --tool NAME --args JSON)`);
  const file = String(args.file);
  let text: string;
  try {
    text = await readFile(resolve(io.cwd ?? process.cwd(), file), 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read policy file "${file}": ${(error as Error).message}`);
  }
  const policy = new ToolPolicy(parsePolicyYaml(text, file));
  const tool = String(args.tool);
  const callArgs = parseArgsJson(typeof args.args === 'string' ? args.args : '{}');
  const result = decideToolCall(policy, tool, callArgs, args['requires-approval'] === true);
  if (args.json === true) {
    writeJson(io, { tool, args: callArgs, decision: result.decision, reason: result.reason, rule: result.rule ?? null });
  } else {
    writeData(io, `${result.decision}  ${tool}\n  reason: ${result.reason}\n  rule:   ${result.rule ?? '(default)'}`);
  }
  return ExitCode.OK;
}
