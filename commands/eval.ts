import { closestMatch } from '../lib/core/suggest.js';
import { UsageError } from '../cli/usage-error.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { compareAction, mergeAction, viewAction } from './eval/report-actions.js';
import { runSuite } from './eval/run-suite.js';

const ACTIONS = { run: runSuite, merge: mergeAction, compare: compareAction, view: viewAction } as const;

/** `agentlib eval <run|merge|compare|view> …`. */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const action = String(args.action);
  if (!Object.hasOwn(ACTIONS, action)) {
    const suggestion = closestMatch(action, Object.keys(ACTIONS));
    throw new UsageError(`unknown eval action "${action}"${suggestion === undefined ? '' : ` — did you mean "${suggestion}"?`} (run, merge, compare, view)`, suggestion === undefined ? {} : { suggestion });
  }
  return ACTIONS[action as keyof typeof ACTIONS](args, context);
}
