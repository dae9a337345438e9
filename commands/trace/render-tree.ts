import { Chalk, type ChalkInstance } from 'chalk';
import { displayWidth } from '../../lib/core/display-width.js';
import { formatCost, formatDuration, formatTokensGrouped } from '../../lib/core/format-units.js';
import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';
import type { AgentTrace } from '../../lib/trace/agent-trace.js';
import { runStart } from '../../lib/trace/trace-data.js';
import { stepTreeOrder } from '../../lib/trace/tree.js';
import type { TraceStep } from '../../lib/trace/trace-step.js';
import { barSpan, barText } from '../../lib/trace/waterfall.js';
import { ASCII_ELLIPSIS, cell, ELLIPSIS, fit } from './format.js';

/** Options of `renderTraceTree`. */
export interface TreeRenderOptions {
  /** Total line width (the terminal's columns, or 100). */
  width: number;
  /** Only ASCII for everything the tree draws (lines, bars, status glyphs, separators, cut marks). */
  ascii?: boolean;
  /** ANSI colours. */
  color?: boolean;
}

/** Status glyphs: ✓ ok, x failed, ⊷ still running (incomplete). */
export const STEP_GLYPHS = { ok: '✓', error: 'x', running: '⊷' } as const;
/** The status glyphs of `--ascii`: + ok, ! failed, ~ still running. */
export const ASCII_STEP_GLYPHS: Record<keyof typeof STEP_GLYPHS, string> = { ok: '+', error: '!', running: '~' };

/** Everything the tree draws besides trace text, per character set. */
const UNICODE = { branch: '├─ ', last: '└─ ', pipe: '│  ', space: '   ', full: '█', instant: '▏', rule: '─', status: STEP_GLYPHS, separator: ' · ', ellipsis: ELLIPSIS };
const ASCII = { branch: '|- ', last: '`- ', pipe: '|  ', space: '   ', full: '#', instant: '|', rule: '-', status: ASCII_STEP_GLYPHS, separator: ' | ', ellipsis: ASCII_ELLIPSIS };

/** The line under the header of a trace its run never finished writing. */
export const INCOMPLETE_NOTE = 'incomplete: the run did not finish this trace (killed, or still running); these are the steps written so far';

/** Widths of the fixed columns: glyph (with its space), duration, tokens, cost. */
const GLYPH_W = 2;
const TIME_W = 7;
const TOKENS_W = 7;
const COST_W = 10;
const GAP = 2;
const MIN_BAR = 10;
const MIN_LABEL = 16;

/** The status of a step as the glyph shows it. */
export function stepState(step: TraceStep): keyof typeof STEP_GLYPHS {
  if (step.status === 'error') return 'error';
  return step.metadata?.['incomplete'] === true ? 'running' : 'ok';
}

/** The column layout of a tree for a given width. */
export interface TreeLayout {
  label: number;
  bar: number;
  /** Column (0-based) where the waterfall starts. */
  barStart: number;
}

/** Splits `width` between the label and the waterfall (the label gets up to 45 %, at least 16). */
export function treeLayout(width: number, widestLabel: number): TreeLayout {
  const fixed = GLYPH_W + GAP + TIME_W + GAP + TOKENS_W + GAP + COST_W + GAP;
  const room = Math.max(width, fixed + MIN_LABEL + MIN_BAR) - fixed;
  const label = Math.max(MIN_LABEL, Math.min(widestLabel, Math.floor(width * 0.45), room - MIN_BAR));
  const bar = Math.max(MIN_BAR, room - label);
  return { label, bar, barStart: fixed + label };
}

/**
 * The static step tree of a trace: a header with the run's fields and totals, then one line per
 * step (depth-first, children under their parent step) with a status glyph, type and name, duration,
 * tokens, cost and a waterfall bar scaled to the run's duration, so parallel steps start in the
 * same column. Failed steps get their error on the next line.
 */
export function renderTraceTree(trace: AgentTrace, options: TreeRenderOptions): string {
  const chalk = new Chalk({ level: options.color === true ? 1 : 0 });
  const glyphs = options.ascii === true ? ASCII : UNICODE;
  const totals = trace.totals();
  const runMs = trace.durationMs;
  const lines: string[] = [];

  const head = [`trace ${trace.runId}`];
  if (trace.agentName !== undefined) head.push(`agent ${trace.agentName}`);
  if (trace.model !== undefined) head.push(`model ${trace.provider === undefined ? trace.model : `${trace.provider}/${trace.model}`}`);
  head.push(trace.incomplete === true ? `status ${trace.status === undefined ? '' : `${trace.status} `}incomplete` : `status ${trace.status ?? 'unknown'}`);
  // Run fields come from the trace file: nothing in them may drive the terminal.
  for (const line of wrapParts(head.map((part) => oneLineName(sanitizeForTerminal(part))), '  ', options.width, glyphs.ellipsis)) lines.push(chalk.bold(line));
  const summary = [
    formatDuration(runMs),
    plural(totals.steps, 'step'),
    plural(totals.llmCalls, 'LLM call'),
    plural(totals.toolCalls, 'tool call'),
    `${formatTokensGrouped(totals.totalTokens)} tokens (${formatTokensGrouped(totals.promptTokens)} in, ${formatTokensGrouped(totals.completionTokens)} out)`,
    formatCost(totals.costUsd),
  ];
  if (trace.nestedRuns.length > 0) summary.push(plural(trace.nestedRuns.length, 'nested run'));
  if (totals.errors > 0) summary.push(plural(totals.errors, 'error'));
  const wrapped = wrapParts(summary, glyphs.separator, options.width, glyphs.ellipsis);
  if (totals.errors > 0) wrapped.push(wrapped.pop()?.replace(/\d+ errors?$/, (text) => chalk.red(text)) ?? '');
  lines.push(...wrapped);
  if (trace.incomplete === true) lines.push(chalk.yellow(fit(INCOMPLETE_NOTE, options.width, glyphs.ellipsis)));
  if (trace.steps.length === 0) {
    lines.push('', chalk.dim('(no steps)'));
    return `${lines.join('\n')}\n`;
  }

  // One row per step in tree pre-order; a step is its parent's last child when their subtrees end together.
  const order = stepTreeOrder(trace);
  const childPrefix: string[] = [];
  const rows = order.map((entry) => {
    const parent = entry.parentIndex < 0 ? undefined : order[entry.parentIndex];
    const last = parent === undefined || parent.end === entry.end;
    const prefix = parent === undefined ? '' : (childPrefix[entry.parentIndex] ?? '');
    const own = entry.depth === 0 ? '' : last ? glyphs.last : glyphs.branch;
    childPrefix[entry.index] = entry.depth === 0 ? '' : prefix + (last ? glyphs.space : glyphs.pipe);
    const name = entry.step.name === undefined || entry.step.name === '' ? '' : ` ${sanitizeForTerminal(oneLineName(entry.step.name))}`;
    return { step: entry.step, label: `${prefix}${own}${entry.step.type}${name}`, prefix: displayWidth(prefix + own) };
  });

  const layout = treeLayout(options.width, rows.reduce((widest, row) => Math.max(widest, displayWidth(row.label)), 0));
  const scale = `0${' '.repeat(Math.max(1, layout.bar - 1 - formatDuration(runMs).length))}${formatDuration(runMs)}`;
  lines.push(
    '',
    chalk.dim(
      ' '.repeat(GLYPH_W) + [cell('step', layout.label), cell('time', TIME_W, 'right'), cell('tokens', TOKENS_W, 'right'), cell('cost', COST_W, 'right'), fit(scale, layout.bar, glyphs.ellipsis)].join(' '.repeat(GAP)),
    ),
  );
  const start = runStart(trace);
  for (const { step, label, prefix } of rows) {
    const state = stepState(step);
    const paint = state === 'error' ? chalk.red : state === 'running' ? chalk.yellow : chalk.green;
    const tokens = step.usage === undefined ? '' : formatTokensGrouped(step.usage.totalTokens);
    const cost = step.costUsd === undefined ? '' : formatCost(step.costUsd);
    const bar = barText(barSpan(step.startedAt - start, step.durationMs, runMs, layout.bar), layout.bar, step.durationMs <= 0, glyphs, false);
    const line = `${paint(glyphs.status[state])}${' '.repeat(GLYPH_W - 1)}` + [
      cell(label, layout.label, 'left', glyphs.ellipsis),
      cell(formatDuration(step.durationMs), TIME_W, 'right', glyphs.ellipsis),
      cell(tokens, TOKENS_W, 'right', glyphs.ellipsis),
      cell(cost, COST_W, 'right', glyphs.ellipsis),
      barColor(chalk, step)(bar),
    ].join(' '.repeat(GAP));
    lines.push(line.trimEnd());
    if (step.error !== undefined) {
      const indent = ' '.repeat(GLYPH_W + Math.min(layout.label - 4, prefix) + 2);
      lines.push(chalk.red(fit(`${indent}${sanitizeForTerminal(`${step.error.name}: ${step.error.message}`)}`, options.width, glyphs.ellipsis)));
    }
  }
  return `${lines.join('\n')}\n`;
}

function barColor(chalk: ChalkInstance, step: TraceStep): (text: string) => string {
  if (step.status === 'error') return chalk.red;
  if (step.type === 'llm_call' || step.type === 'cache_hit') return chalk.cyan;
  if (step.type === 'tool_execution') return chalk.magenta;
  return chalk.dim;
}

/** Joins `parts` with `separator` into lines of at most `width` terminal columns (cuts marked with `ellipsis`). */
function wrapParts(parts: readonly string[], separator: string, width: number, ellipsis: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const part of parts) {
    const next = current === '' ? part : `${current}${separator}${part}`;
    if (current !== '' && displayWidth(next) > width) {
      lines.push(current);
      current = part;
    } else {
      current = next;
    }
  }
  if (current !== '') lines.push(current);
  return lines.map((line) => fit(line, width, ellipsis));
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** A step name on one line. */
function oneLineName(name: string): string {
  return name.replace(/\s+/g, ' ');
}
