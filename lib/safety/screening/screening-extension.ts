import type { AgentExtension } from '../../agent/extension.js';
import { OutputScreener, type OutputScreenerOptions } from './output-screener.js';

/** Options of {@link screeningExtension}. */
export interface ScreeningOptions extends OutputScreenerOptions {
  /** Screen every tool's output. Default false: only tools defined with `screenOutput: true`. */
  allTools?: boolean;
  /** Also screen these tools (names). */
  tools?: readonly string[];
}

/**
 * The agent-loop extension that screens tool output before the model sees it (see
 * {@link OutputScreener}): for tools defined with `screenOutput: true`, the tools listed in
 * `tools`, or every tool with `allTools`. Each screened output that had a match emits
 * `output-screened` (an `output_screening` trace step) naming the patterns and the count replaced.
 */
export function screeningExtension(options: ScreeningOptions = {}): AgentExtension {
  const screener = new OutputScreener(options);
  const listed = new Set(options.tools ?? []);
  return {
    name: 'screening',
    async afterTool(ctx, call, output, tool) {
      if (options.allTools !== true && !listed.has(call.toolName) && tool?.screenOutput !== true) return output;
      const { content, findings } = screener.screen(output);
      if (findings.length === 0) return output;
      await ctx.emit('output-screened', { callId: call.id, toolName: call.toolName, patterns: [...new Set(findings.map((f) => f.pattern))], replaced: findings.length });
      return content;
    },
  };
}
