import type { ToolCall } from '../core/tool-call.js';
import { parseTextToolCalls } from '../providers/text-tool-calls.js';
import type { RunState } from './run-state.js';

/** Every directive form names tool_call (any case); replies without it skip the parser. */
const DIRECTIVE_HINT = /tool_call/i;

/** Tool calls found in a reply, plus directive errors to feed back and the prose left over. */
export interface ResolvedCalls {
  calls: ToolCall[];
  errors: string[];
  text: string;
}

/**
 * Native tool calls win. Only when a reply has none, the run has tools and no responseFormat is
 * set, the text-directive parser looks for explicit TOOL_CALL directives. Missing call ids are
 * generated.
 */
export function resolveToolCalls(state: RunState, native: readonly ToolCall[] | undefined, text: string): ResolvedCalls {
  if (native && native.length > 0) {
    const calls = native.map((call) =>
      call.id ? call : { ...call, id: state.config.runtime.generateId('call') },
    );
    return { calls, errors: [], text };
  }
  if (state.responseFormat || state.tools.size === 0 || !DIRECTIVE_HINT.test(text)) {
    return { calls: [], errors: [], text };
  }
  const parsed = parseTextToolCalls(text);
  const calls = parsed.calls.map((call) => ({
    id: state.config.runtime.generateId('call'),
    toolName: call.toolName,
    parameters: call.parameters,
  }));
  return { calls, errors: parsed.errors, text: parsed.text };
}
