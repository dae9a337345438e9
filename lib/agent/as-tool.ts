import type { AgentEvent } from '../events/types.js';
import { tool } from '../tools/tool.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { failedRunResult } from './execute-run.js';
import type { AgentResult } from './result.js';
import type { RunOptions } from './types.js';

/** Options of `agent.asTool()`. */
export interface AsToolOptions {
  /** The tool's name (letters, digits, `_`). Default: the agent's name with other characters as `_`. */
  name?: string;
  /** What the agent does, for the calling model (10–1024 characters). */
  description: string;
}

/** Runs the agent once on `input` as a nested run, handing its events to `onEvent`. */
export type NestedAgentRun = (input: string, options: RunOptions, onEvent: (event: AgentEvent) => void) => Promise<AgentResult>;

/**
 * @internal `agent.asTool()`: a tool `{ input }` whose call runs the agent on `input` without
 * touching its conversation. The nested run gets the caller's run id as `parentRunId` and the
 * call's signal (cancelling the caller cancels it); its events go to the caller's observers,
 * stream and trace (nested under the tool call) and its usage and cost are added to the caller's.
 * A failed nested run is a failed tool call (`tool-error`), never an answer; the usage and cost it
 * had spent before failing are still added to the caller's.
 */
export function agentTool(agentName: string, options: AsToolOptions, run: NestedAgentRun): Tool {
  return tool({
    name: options.name ?? (agentName.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1') || 'agent'),
    description: options.description,
    parameters: {
      type: 'object',
      properties: { input: { type: 'string', description: 'The task or question for the agent, self-contained' } },
      required: ['input'],
      additionalProperties: false,
    },
    execute: async (args: Record<string, unknown>, ctx: ToolContext) => {
      const input = String(args['input']);
      let result: AgentResult;
      try {
        result = await run(input, { parentRunId: ctx.runId, signal: ctx.signal }, (event) => ctx.nested?.emit(event));
      } catch (error) {
        // What the nested run spent before it failed is real spend: it counts for the caller too.
        const failed = failedRunResult(error);
        if (failed !== undefined) ctx.nested?.addUsage(failed.usage);
        throw error;
      }
      ctx.nested?.addUsage(result.usage);
      return result.content;
    },
  });
}
