import { GuardrailError } from '../../core/errors/guardrail-error.js';
import type { ToolCall } from '../../core/tool-call.js';
import type { AgentExtension, ExtensionContext } from '../../agent/extension.js';
import type { GuardrailsPipeline, GuardrailReporter } from './guardrails-pipeline.js';

function reporter(ctx: ExtensionContext, call?: ToolCall): GuardrailReporter {
  return (trigger) =>
    ctx.emit('guardrail-triggered', {
      guardrail: trigger.guardrail,
      stage: trigger.stage,
      action: trigger.action,
      reason: trigger.reason,
      matches: trigger.matches,
      ...(call === undefined ? {} : { callId: call.id, toolName: call.toolName }),
    });
}

/**
 * The agent-loop extension that applies a {@link GuardrailsPipeline}: input guardrails on the
 * user's text (`checkInput`), output guardrails on the final answer (`checkOutput`), tool-argument
 * guardrails before a call (`beforeTool`: a block stops the call and tells the model why) and
 * tool-result guardrails on a tool's output (`afterTool`: a block turns the result into an error).
 * Every failure emits `guardrail-triggered` (a `guardrail` trace step).
 */
export function guardrailsExtension(pipeline: GuardrailsPipeline): AgentExtension {
  return {
    name: 'guardrails',
    ...(pipeline.input.length === 0 ? {} : { checkInput: (ctx: ExtensionContext, text: string) => pipeline.run('input', text, reporter(ctx)) }),
    ...(pipeline.output.length === 0 ? {} : { checkOutput: (ctx: ExtensionContext, text: string) => pipeline.run('output', text, reporter(ctx)) }),
    ...(pipeline.toolArguments.length === 0
      ? {}
      : {
          beforeTool: async (ctx: ExtensionContext, call: ToolCall) => {
            try {
              await pipeline.run('tool-arguments', JSON.stringify(call.parameters), reporter(ctx, call));
              return undefined;
            } catch (error) {
              if (GuardrailError.isInstance(error)) return `guardrail "${error.guardrail}" refused the arguments (${error.reason}). Do not retry it with the same arguments.`;
              throw error;
            }
          },
        }),
    ...(pipeline.toolResult.length === 0
      ? {}
      : { afterTool: (ctx: ExtensionContext, call: ToolCall, output: string) => pipeline.run('tool-result', output, reporter(ctx, call)) }),
  };
}
