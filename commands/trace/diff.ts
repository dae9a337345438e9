import { Chalk } from 'chalk';
import { writeJson } from '../../cli/output.js';
import { diffTraces, type DiffToolCall, type DiffValue, type ToolCallDiffKind, type TraceDiff, type TraceDiffRun } from '../../lib/trace/diff.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { formatCost, formatDuration, formatTokensGrouped } from '../../lib/core/format-units.js';
import { cutToWidth, displayWidth, tailToWidth } from '../../lib/core/display-width.js';
import { ASCII_ELLIPSIS, cell, ELLIPSIS, formatDelta, safeCell, table } from './format.js';
import type { LoadedTrace } from './resolve-trace.js';
import { DEFAULT_WIDTH } from './show.js';

/** The marks of the tool call rows. */
export const DIFF_MARKS: Record<ToolCallDiffKind, string> = { same: '=', changed: '~', replaced: '≠', removed: '-', added: '+' };

/**
 * The side-by-side text of a diff: run fields, duration, step counts by type, tokens, cost and
 * errors with `b - a`, then the aligned tool call sequences with a mark per row. The metrics
 * table and the tool calls' legend fit `width` columns.
 */
export function renderDiff(diff: TraceDiff, files: { a: string; b: string }, options: { width: number; ascii?: boolean; color?: boolean }): string {
  const chalk = new Chalk({ level: options.color === true ? 1 : 0 });
  const ascii = options.ascii === true;
  const marks = { ...DIFF_MARKS, ...(ascii ? { replaced: '!' } : {}) };
  const ellipsis = ascii ? ASCII_ELLIPSIS : ELLIPSIS;
  const m = diff.metrics;
  const runText = (run: TraceDiffRun, key: 'agentName' | 'model' | 'status'): string =>
    key === 'model' && run.model !== undefined && run.provider !== undefined
      ? `${run.provider}/${run.model}`
      : key === 'status' && run.incomplete === true
        ? `${run.status ?? ''} incomplete`.trim()
        : (run[key] ?? '-');
  const differs = (x: string, y: string): string => (x === y ? '' : ascii ? '!=' : '≠');
  const num = (label: string, value: DiffValue, format: (n: number) => string = String): string[] => [label, format(value.a), format(value.b), value.delta === 0 ? '' : formatDelta(value.delta, format, ascii)];
  const rows: string[][] = [
    ['', 'a', 'b', ''],
    ['file', files.a, files.b, ''],
    ['run', diff.a.runId, diff.b.runId, ''],
  ];
  for (const [label, key] of [['agent', 'agentName'], ['model', 'model'], ['status', 'status']] as const) {
    const a = runText(diff.a, key);
    const b = runText(diff.b, key);
    rows.push([label, a, b, differs(a, b)]);
  }
  rows.push(num('duration', m.durationMs, (ms) => formatDuration(ms)), num('steps', m.steps));
  for (const row of diff.stepsByType) rows.push(num(`  ${row.type}`, row));
  rows.push(
    num('tokens', m.totalTokens, formatTokensGrouped),
    num('  input', m.promptTokens, formatTokensGrouped),
    num('  output', m.completionTokens, formatTokensGrouped),
    num('cost', m.costUsd, formatCost),
    num('errors', m.errors),
  );
  const lines = table(fitSides(rows, options.width, ellipsis), new Set([3]), ellipsis);
  lines[0] = chalk.bold(lines[0] ?? '');

  const legend = `tool calls (${marks.same} same, ${marks.changed} other arguments or status, ${marks.replaced} other tool, ${marks.removed} only in a, ${marks.added} only in b)`;
  lines.push('', chalk.bold(cutToWidth(legend, options.width, ellipsis)));
  if (diff.toolCalls.length === 0) {
    lines.push(chalk.dim('  (no tool calls in either run)'));
  } else {
    const numberWidth = String(diff.toolCalls.length).length;
    const side = Math.max(16, Math.floor((options.width - 4 - numberWidth - 2) / 2) - 1);
    lines.push(chalk.dim(`${' '.repeat(3 + numberWidth)}  ${cell('a', side, 'left', ellipsis)}  b`));
    diff.toolCalls.forEach((row, index) => {
      const paint = row.kind === 'same' ? (text: string) => text : row.kind === 'removed' ? chalk.red : row.kind === 'added' ? chalk.green : chalk.yellow;
      const left = cell(row.a === undefined ? '' : callText(row.a), side, 'left', ellipsis);
      const right = row.b === undefined ? '' : callText(row.b);
      lines.push(paint(`${marks[row.kind]}  ${String(index + 1).padStart(numberWidth)}  ${left}  ${right}`.trimEnd()));
    });
  }
  lines.push('', diff.sameShape ? 'same shape: status, step counts and tool calls match' : 'the runs differ');
  return `${lines.join('\n')}\n`;
}

/** Columns between the cells of a table (see `table`). */
const GAP = 2;
/** The narrowest the a and b columns are cut to. */
const MIN_SIDE = 8;

/**
 * The metrics rows with the a and b cells cut so the table fits `width` columns: file paths keep
 * their end (`…/traces/run_1.jsonl`), other values their start; cuts are marked with `ellipsis`. Rows that fit are returned as is.
 */
function fitSides(rows: readonly string[][], width: number, ellipsis: string): string[][] {
  const safe = rows.map((row) => row.map(safeCell));
  const widest = (col: number): number => Math.max(0, ...safe.map((row) => displayWidth(row[col] ?? '')));
  const fixed = widest(0) + widest(3) + 3 * GAP;
  const side = Math.max(MIN_SIDE, Math.floor((width - fixed) / 2));
  if (widest(1) <= side && widest(2) <= side) return safe;
  // One side may use what the other leaves.
  const a = Math.min(widest(1), Math.max(side, width - fixed - Math.min(widest(2), side)));
  const b = Math.max(MIN_SIDE, width - fixed - a);
  return safe.map((row) =>
    row.map((text, col) => {
      if (col !== 1 && col !== 2) return text;
      const room = col === 1 ? a : b;
      return row[0] === 'file' ? tailToWidth(text, room, ellipsis) : cutToWidth(text, room, ellipsis);
    }),
  );
}

/** A tool call on one line, safe for the terminal (names and arguments come from the trace files). */
function callText(call: DiffToolCall): string {
  const args = call.input === undefined ? '' : ` ${call.input.replace(/\s+/g, ' ')}`;
  return safeCell(`${call.name}${args}${call.status === 'error' ? ' (error)' : ''}`);
}

/** `agentlib trace diff <a> <b> [--json]`: compares two traces side by side. */
export function diffCommand(a: LoadedTrace, b: LoadedTrace, args: CommandArguments, context: CommandContext): number {
  const diff = diffTraces(a.trace, b.trace);
  if (args.json === true) {
    writeJson(context.io, { files: { a: a.shown, b: b.shown }, ...diff });
    return 0;
  }
  const width = context.io.stdout.columns ?? DEFAULT_WIDTH;
  context.io.stdout.write(renderDiff(diff, { a: a.shown, b: b.shown }, { width: width > 0 ? width : DEFAULT_WIDTH, ascii: args.ascii === true, color: context.color }));
  return 0;
}
