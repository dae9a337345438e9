import { formatCostNarrow, formatDuration, formatTokens } from '../../lib/core/format-units.js';
import { splitToWidth } from '../../lib/core/split-to-width.js';
import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';
import { callInputSummary } from '../../lib/trace/summary.js';
import type { TraceData } from '../../lib/trace/trace-data.js';
import type { TraceMessage, TraceStep } from '../../lib/trace/trace-step.js';
import { stepGlyph } from './format.js';

/** One line of the detail pane, already wrapped to the pane's width. */
export interface DetailLine {
  text: string;
  tone?: 'heading' | 'error' | 'dim' | 'title';
}

/** The run's own input and output (the trace's run fields), shown with its first (root) step. */
export type RunText = Pick<TraceData, 'input' | 'output'>;

/**
 * The detail pane of a step as wrapped lines: a title, timing / tokens / cost, then sections for
 * input (an LLM call's messages, tool args), output (answer, tool result), reasoning, error, the
 * run's input and output (`run`: given for the root step) and metadata. Everything from the trace
 * file is made safe for the terminal (see `wrap`).
 */
export function detailLines(step: TraceStep | undefined, runStart: number, width: number, run?: RunText): DetailLine[] {
  if (!step) return [{ text: 'No step selected.', tone: 'dim' }];
  const w = Math.max(10, width);
  const lines: DetailLine[] = [];
  const push = (text: string, tone?: DetailLine['tone']): void => {
    for (const line of wrap(text, w)) lines.push(tone === undefined ? { text: line } : { text: line, tone });
  };
  push(`${stepGlyph(step)} ${step.type}${step.name ? ` ${step.name}` : ''}  ${step.status}`, step.status === 'error' ? 'error' : 'title');
  const facts = [`id ${step.id}`, step.parentId === undefined ? undefined : `parent ${step.parentId}`, `run ${step.runId}`];
  push(facts.filter(Boolean).join('  '), 'dim');
  const timing = [`start +${formatDuration(step.startedAt - runStart)}`, `duration ${formatDuration(step.durationMs)}`];
  if (step.usage) {
    const u = step.usage;
    let tokens = `tokens ${formatTokens(u.totalTokens)} (${formatTokens(u.promptTokens)} in / ${formatTokens(u.completionTokens)} out`;
    if (u.reasoningTokens) tokens += ` / ${formatTokens(u.reasoningTokens)} reasoning`;
    if (u.cachedPromptTokens) tokens += ` / ${formatTokens(u.cachedPromptTokens)} cached`;
    timing.push(`${tokens})`);
  }
  const cost = formatCostNarrow(step.costUsd, Infinity);
  if (cost) timing.push(`cost ${cost}`);
  push(timing.join('  '));
  const section = (title: string, body: string | undefined, tone?: DetailLine['tone']): void => {
    if (body === undefined || body === '') return;
    push(`── ${title} ──`, 'heading');
    push(body, tone);
  };
  if (step.error) {
    const extra = [step.error.toolName && `tool ${step.error.toolName}`, step.error.provider && `provider ${step.error.provider}`, step.error.status !== undefined && `status ${step.error.status}`];
    section('error', [`${step.error.name}: ${step.error.message}`, extra.filter(Boolean).join('  ')].filter(Boolean).join('\n'), 'error');
  }
  const messages = step.type === 'llm_call' ? (step.messages ?? []) : [];
  if (messages.length > 0) {
    push('── messages ──', 'heading');
    if (step.input !== undefined) push(`${callCounts(step.input)} sent (shown: the user message and what followed it)`, 'dim');
    for (const message of messages) push(messageText(message), message.isError === true ? 'error' : undefined);
  } else {
    section(inputTitle(step), step.type === 'llm_call' && step.input !== undefined ? callCounts(step.input) : prettyJson(step.input));
  }
  // The reply closes the messages: the answer is not shown twice.
  if (!(messages.at(-1)?.role === 'assistant')) section(outputTitle(step), prettyJson(step.output));
  section('reasoning', step.reasoning);
  section('run input', run?.input);
  section('run output', run?.output);
  if (step.metadata && Object.keys(step.metadata).length > 0) section('metadata', JSON.stringify(step.metadata, null, 2), 'dim');
  return lines;
}

/** One message: `user: …`, `assistant: …` with `→ tool(args)` lines, `tool name: …`. */
function messageText(message: TraceMessage): string {
  const who = message.role === 'tool' ? `tool${message.name === undefined ? '' : ` ${message.name}`}` : message.role;
  const calls = (message.toolCalls ?? []).map((call) => `→ ${call.name}(${call.args})`);
  const text = message.content === '' && calls.length > 0 ? '' : ` ${message.content}`;
  return [`${who}:${text}`, ...calls].join('\n');
}

/** `1 message, 2 tools`: also for traces written as `1 messages, 1 tools` before the plural was fixed. */
function callCounts(input: string): string {
  const counts = /^(\d+) messages?, (\d+) tools?$/.exec(input);
  return counts ? callInputSummary(Number(counts[1]), Number(counts[2])) : input;
}

function inputTitle(step: TraceStep): string {
  if (step.type === 'tool_execution') return 'arguments';
  if (step.type === 'llm_call') return 'messages';
  return 'input';
}

function outputTitle(step: TraceStep): string {
  if (step.type === 'tool_execution') return 'result';
  if (step.type === 'tool_selection') return 'tool calls';
  if (step.type === 'llm_call') return 'answer';
  return 'output';
}

/** Pretty-prints text that is a JSON object or array; anything else is returned as is. */
function prettyJson(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('[')) || trimmed.length > 20_000) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

/**
 * Hard-wraps text to `width` terminal columns (wide CJK characters and emoji take two; a grapheme
 * is never split), keeping its own line breaks; tabs become two spaces.
 */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(2, width); // room for one wide character
  // Trace files hold model and tool output: nothing in them may drive the terminal.
  return sanitizeForTerminal(text.replace(/\t/g, '  '))
    .split('\n')
    .flatMap((line) => (line === '' ? [''] : splitToWidth(line, w)));
}
