import { Text } from 'ink';
import { memo } from 'react';
import { displayWidth } from '../../lib/core/display-width.js';
import { formatCostNarrow, formatDuration, formatTokens } from '../../lib/core/format-units.js';
import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';
import type { TraceStep } from '../../lib/trace/trace-step.js';
import { barSpan, barText } from '../../lib/trace/waterfall.js';
import { fit, oneLine, stepGlyph } from './format.js';
import { COST_WIDTH, DURATION_WIDTH, TOKENS_WIDTH } from './layout.js';
import type { VisibleRow } from './tree-model.js';

interface Props {
  row: VisibleRow;
  selected: boolean;
  /** The list has the keys (the selection is highlighted more strongly). */
  focused: boolean;
  labelWidth: number;
  barWidth: number;
  runStart: number;
  runDurationMs: number;
}

const GLYPH_COLOR = { '✓': 'green', x: 'red', '?': 'yellow', '⊷': 'cyan' } as const;

function barColor(step: TraceStep): string {
  if (step.status === 'error') return 'red';
  if (step.type === 'llm_call' || step.type === 'cache_hit') return 'blue';
  if (step.type === 'tool_execution') return 'green';
  if (step.type.startsWith('graph_')) return 'magenta';
  return 'gray';
}

/** One step: pointer, indent, fold marker, glyph, type, name, duration, tokens, cost and its waterfall bar. */
function StepRowView({ row, selected, focused, labelWidth, barWidth, runStart, runDurationMs }: Props) {
  const { step, depth } = row.node;
  const glyph = stepGlyph(step);
  const marker = row.hasChildren ? (row.folded ? '▸' : '▾') : ' ';
  const indent = '  '.repeat(Math.min(depth, 12));
  const lead = `${indent}${marker} `;
  // Names come from the trace file: one line, no escape sequences, cut by terminal columns.
  const name = step.name ? ` ${oneLine(sanitizeForTerminal(step.name))}` : '';
  const label = fit(`${step.type}${name}`, Math.max(1, labelWidth - displayWidth(lead) - 2), true);
  const span = barSpan(step.startedAt - runStart, step.durationMs, runDurationMs, barWidth);
  const tokens = step.usage ? formatTokens(step.usage.totalTokens) : '';
  const right = (text: string, width: number): string => fit(text, width).padStart(width);
  return (
    <Text wrap="truncate" inverse={selected && focused} bold={selected} dimColor={!row.match}>
      <Text {...(selected ? { color: 'cyan' } : {})}>{selected ? '›' : ' '}</Text>
      {lead}
      <Text color={GLYPH_COLOR[glyph]}>{glyph}</Text> {label}
      {' '}
      {right(formatDuration(step.durationMs), DURATION_WIDTH)} {right(tokens, TOKENS_WIDTH)} {right(formatCostNarrow(step.costUsd, COST_WIDTH), COST_WIDTH)}{' '}
      <Text color={barColor(step)}>{barText(span, barWidth, step.durationMs <= 0)}</Text>
    </Text>
  );
}

export const StepRow = memo(StepRowView);
