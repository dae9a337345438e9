import type { ToolCall } from '../../core/tool-call.js';

const MAX_QUOTE = 500;

function quote(text: string): string {
  return JSON.stringify(text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text);
}

/**
 * Builds a ToolCall from the `partial_json` fragments of a streamed tool_use block. No fragments
 * (or only `""`) means a no-argument call (`{}`); text that is not a JSON object gives a call
 * with `argumentsError` (never `{}` in its place).
 */
export function assembleToolCall(id: string, name: string, json: string): ToolCall {
  if (json.trim() === '') return { id, toolName: name, parameters: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { id, toolName: name, parameters: {}, argumentsError: `tool arguments are not valid JSON (${reason}): ${quote(json)}` };
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { id, toolName: name, parameters: parsed as Record<string, unknown> };
  return { id, toolName: name, parameters: {}, argumentsError: `tool arguments are not a JSON object: ${quote(json)}` };
}
