import { addCandidate, excerpt, type Collector, type TextToolCall } from './text-tool-calls-collect.js';
import { scanJsonValue } from './text-tool-calls-scan.js';

export type { TextToolCall } from './text-tool-calls-collect.js';

/**
 * Parser for tool calls written as text, for models without native tool calling. The caller
 * uses it only when a reply has no native tool calls and no responseFormat is set.
 *
 * Only explicit directives count, never JSON that merely appears in prose:
 * - a `TOOL_CALL` marker (also `TOOL_CALLS` / `[TOOL_CALLS]`), optionally followed by `:` or `=`,
 *   then a JSON object (or an array of objects), which may span lines:
 *   `TOOL_CALL: {"tool_name": "get_weather", "parameters": {"city": "Rome"}}`;
 * - a fenced code block whose info string is `tool_call` / `tool_calls` (any case, `-` accepted),
 *   holding one or more JSON objects or arrays;
 * - a `<tool_call>…</tool_call>` element (the format many open models emit) holding the same.
 *
 * Keys: the tool name is `tool_name`, `tool` or `name` (first present wins); the arguments are
 * `parameters`, `params` or `arguments` (an object; `arguments` may also be a JSON string holding
 * an object, as in OpenAI's wire format). Missing or `null` arguments mean `{}` (a tool without
 * parameters). Everything else is an error reported in `errors` (to be fed back to the model):
 * malformed or unterminated JSON, a candidate over {@link MAX_TOOL_CALL_BYTES} bytes, a missing
 * name, arguments that are not an object. A malformed directive never becomes a call with `{}`.
 */

/** Largest directive JSON accepted, in UTF-8 bytes. */
export const MAX_TOOL_CALL_BYTES = 8192;

/** What `parseTextToolCalls` found. */
export interface TextToolCallParseResult {
  /** Valid calls, in text order. */
  calls: TextToolCall[];
  /** One message per rejected directive, written to be shown to the model. */
  errors: string[];
  /** The text with every directive removed, trimmed. */
  text: string;
}

/** Options of `parseTextToolCalls`. */
export interface TextToolCallOptions {
  /** Size limit per candidate in UTF-8 bytes. Default {@link MAX_TOOL_CALL_BYTES}. */
  maxBytes?: number;
}

const MARKER = /(\[)?(?<![A-Za-z0-9_])TOOL_CALLS?(?![A-Za-z0-9_])(\])?/g;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*tool[_-]?calls?(?![\w-])[^\n]*$/gim;
const TAG = /<tool_call>/gi;
const TAG_END = /<\/tool_call>/gi;

/** Parses the body of a fenced block or `<tool_call>` element: one or more JSON values. */
function addBody(body: string, label: string, out: Collector): void {
  let pos = body.search(/\S/);
  const marker = /^TOOL_CALLS?[ \t]*[:=]?/.exec(body.slice(Math.max(pos, 0)));
  if (pos >= 0 && marker) pos += marker[0].length;
  let found = 0;
  while (pos >= 0 && pos < body.length) {
    const start = body.slice(pos).search(/\S/);
    if (start < 0) break;
    pos += start;
    const char = body[pos];
    if (char !== '{' && char !== '[') {
      out.errors.push(`${label}: expected a JSON object, found: ${excerpt(body.slice(pos, pos + 60))}`);
      return;
    }
    const scan = scanJsonValue(body, pos);
    if (!scan.complete) {
      out.errors.push(`${label}: unterminated JSON (a closing brace or bracket is missing) in: ${excerpt(body.slice(pos))}`);
      return;
    }
    found += 1;
    addCandidate(body.slice(pos, scan.end), found > 1 ? `${label} #${found}` : label, out);
    pos = scan.end;
  }
  if (found === 0) out.errors.push(`${label}: the block is empty; it must hold a JSON object.`);
}

interface Span {
  start: number;
  end: number;
}

/** Finds the next directive at or after `from`; returns its span, or undefined when none is left. */
function nextDirective(text: string, from: number, out: Collector): Span | undefined {
  for (let pos = from; ; ) {
    FENCE.lastIndex = MARKER.lastIndex = TAG.lastIndex = pos;
    const fence = FENCE.exec(text);
    const marker = MARKER.exec(text);
    const tag = TAG.exec(text);
    const first = [fence, marker, tag].filter((m): m is RegExpExecArray => m !== null).sort((a, b) => a.index - b.index)[0];
    if (!first) return undefined;
    const label = `Tool call ${++out.directives}`;
    const open = first.index + first[0].length;
    if (first === fence) {
      const ticks = first[1] ?? '```';
      const closing = new RegExp(`^[ \\t]{0,3}${ticks[0] === '`' ? '`' : '~'}{${ticks.length},}[ \\t]*$`, 'm');
      const rest = text.slice(open);
      const close = closing.exec(rest);
      addBody(close ? rest.slice(0, close.index) : rest, label, out);
      return { start: first.index, end: close ? open + close.index + close[0].length : text.length };
    }
    if (first === tag) {
      TAG_END.lastIndex = open;
      const close = TAG_END.exec(text);
      addBody(text.slice(open, close ? close.index : text.length), label, out);
      return { start: first.index, end: close ? close.index + close[0].length : text.length };
    }
    const start = first[1] && !first[2] ? first.index + 1 : first.index;
    const after = /^[ \t]*([:=])?\s*/.exec(text.slice(open));
    const jsonAt = open + (after?.[0].length ?? 0);
    const char = text[jsonAt];
    if (char === '{' || char === '[') {
      const scan = scanJsonValue(text, jsonAt);
      if (scan.complete) addCandidate(text.slice(jsonAt, scan.end), label, out);
      else out.errors.push(`${label}: unterminated JSON (a closing brace or bracket is missing) in: ${excerpt(text.slice(jsonAt))}`);
      return { start, end: scan.end };
    }
    if (after?.[1]) {
      out.errors.push(`${label}: TOOL_CALL must be followed by a JSON object like {"tool_name": "...", "parameters": {...}}.`);
      return { start, end: open + after[0].length };
    }
    out.directives -= 1; // a bare mention of TOOL_CALL in prose: not a directive
    pos = open;
  }
}

/** Finds TOOL_CALL directives in text (see the module comment for the accepted forms). */
export function parseTextToolCalls(text: string, options: TextToolCallOptions = {}): TextToolCallParseResult {
  const out: Collector = { calls: [], errors: [], maxBytes: options.maxBytes ?? MAX_TOOL_CALL_BYTES, directives: 0 };
  const kept: string[] = [];
  let pos = 0;
  for (let span = nextDirective(text, 0, out); span; span = nextDirective(text, pos, out)) {
    kept.push(text.slice(pos, span.start));
    pos = span.end;
  }
  kept.push(text.slice(pos));
  return { calls: out.calls, errors: out.errors, text: joinProse(kept) };
}

/**
 * Joins the prose around removed directives with one separator: a blank line if either side had
 * one, else a newline if either side had one, else a space.
 */
function joinProse(pieces: readonly string[]): string {
  let prose = pieces[0] ?? '';
  for (const piece of pieces.slice(1)) {
    const left = prose.trimEnd();
    const right = piece.trimStart();
    const count = (gap: string): number => (gap.match(/\n/g) ?? []).length;
    const newlines = Math.max(count(prose.slice(left.length)), count(piece.slice(0, piece.length - right.length)));
    const separator = !left || !right ? '' : newlines >= 2 ? '\n\n' : newlines === 1 ? '\n' : ' ';
    prose = left + separator + right;
  }
  return prose.trim();
}
