import type { Tool } from '../tools/types.js';
import { REASONING_STRATEGIES, type ReasoningStrategyName } from './strategies.js';

/** What the system prompt is built from. */
export interface SystemPromptInput {
  name: string;
  systemPrompt: string | undefined;
  reasoningStrategy: ReasoningStrategyName | undefined;
  tools: readonly Tool[];
  /** True when the provider has no native tool calling: describe the TOOL_CALL text directive. */
  textToolCalls: boolean;
}

/**
 * Builds the system prompt. A configured `systemPrompt` replaces the built-in one; the reasoning
 * strategy's instructions and (for providers without native tools) the TOOL_CALL directive format
 * are appended in both cases.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const parts: string[] = [];
  if (input.systemPrompt !== undefined) {
    parts.push(input.systemPrompt);
  } else {
    parts.push(`You are ${input.name}, a helpful assistant.`);
    if (input.tools.length > 0) {
      parts.push(
        'Use the available tools when they help answer the request. Call a tool only with the parameters its schema ' +
          'describes. When a tool returns an error, read it and correct the call or explain the problem. ' +
          'When you have the answer, reply directly without calling a tool.',
      );
    }
  }
  if (input.reasoningStrategy !== undefined) parts.push(REASONING_STRATEGIES[input.reasoningStrategy].instructions);
  if (input.textToolCalls && input.tools.length > 0) {
    const list = input.tools
      .map((tool) => `- ${tool.name}: ${tool.description}\n  parameters: ${JSON.stringify(tool.parameters)}`)
      .join('\n');
    parts.push(
      'To call a tool, write a line of the form\nTOOL_CALL: {"tool_name": "<name>", "parameters": {...}}\n' +
        `and nothing after it. Available tools:\n${list}`,
    );
  }
  return parts.join('\n\n');
}
