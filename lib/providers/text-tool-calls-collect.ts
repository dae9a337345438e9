import { isPlainObject } from '../core/json.js';

/** A tool call found in text. */
export interface TextToolCall {
  toolName: string;
  parameters: Record<string, unknown>;
}

/** Accumulates calls and errors while one text is parsed. */
export interface Collector {
  calls: TextToolCall[];
  errors: string[];
  maxBytes: number;
  directives: number;
}

/** A one-line, shortened copy of a JSON candidate for error messages. */
export function excerpt(json: string): string {
  const flat = json.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

const NAME_KEYS = ['tool_name', 'tool', 'name'] as const;
const ARG_KEYS = ['parameters', 'params', 'arguments'] as const;

/** Validates one parsed directive object and records a call or an error. */
function addCall(value: unknown, label: string, out: Collector): void {
  if (!isPlainObject(value)) {
    out.errors.push(`${label}: expected a JSON object like {"tool_name": "...", "parameters": {...}}, got ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'null' : typeof value}.`);
    return;
  }
  const nameKey = NAME_KEYS.find((key) => value[key] !== undefined);
  const name = nameKey ? value[nameKey] : undefined;
  if (typeof name !== 'string' || name.trim() === '') {
    out.errors.push(`${label}: missing tool name; put it in "tool_name" as a non-empty string.`);
    return;
  }
  const argKey = ARG_KEYS.find((key) => value[key] !== undefined);
  let args: unknown = argKey ? value[argKey] : undefined;
  if (argKey === 'arguments' && typeof args === 'string') {
    try {
      args = JSON.parse(args) as unknown;
    } catch (error) {
      out.errors.push(`${label} (${name}): "arguments" is a string that is not valid JSON (${(error as Error).message}).`);
      return;
    }
  }
  if (args === undefined || args === null) args = {};
  if (!isPlainObject(args)) {
    out.errors.push(`${label} (${name}): "${argKey ?? 'parameters'}" must be a JSON object of argument names to values, got ${Array.isArray(args) ? 'an array' : typeof args}.`);
    return;
  }
  out.calls.push({ toolName: name.trim(), parameters: args });
}

/** Parses one JSON candidate (object → one call, array → one call per element). */
export function addCandidate(json: string, label: string, out: Collector): void {
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > out.maxBytes) {
    out.errors.push(`${label}: the JSON is ${bytes} bytes, over the ${out.maxBytes}-byte limit for one tool call.`);
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(json) as unknown;
  } catch (error) {
    out.errors.push(`${label}: invalid JSON (${(error as Error).message}) in: ${excerpt(json)}`);
    return;
  }
  if (Array.isArray(value)) value.forEach((item, i) => addCall(item, `${label}[${i}]`, out));
  else addCall(value, label, out);
}

