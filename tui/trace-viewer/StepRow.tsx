import { Text } from 'ink';
import { memo } from 'react';
import type { TraceStep } from '../../lib/trace/trace-step.js';
import { fit, formatCost, formatDuration, formatTokens, stepGlyph } from './format.js';
import { COST_WIDTH, DURATION_WIDTH, TOKENS_WIDTH } from './layout.js';
import type { VisibleRow } from './tree-model.js';
import { barSpan, barText } from './waterfall.js';

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
  const label = fit(`${step.type}${step.name ? ` ${step.name}` : ''}`, Math.max(1, labelWidth - [...lead].length - 2), true);
  const span = barSpan(step.startedAt, step.durationMs, runStart, runDurationMs, barWidth);
  const tokens = step.usage ? formatTokens(step.usage.totalTokens) : '';
  return (
    <Text wrap="truncate" inverse={selected && focused} bold={selected} dimColor={!row.match}>
      <Text {...(selected ? { color: 'cyan' } : {})}>{selected ? '›' : ' '}</Text>
      {lead}
      <Text color={GLYPH_COLOR[glyph]}>{glyph}</Text> {label}
      {' '}
      {fit(formatDuration(step.durationMs), DURATION_WIDTH).padStart(DURATION_WIDTH)} {tokens.padStart(TOKENS_WIDTH)} {formatCost(step.costUsd).padStart(COST_WIDTH)}{' '}
      <Text color={barColor(step)}>{barText(span, barWidth, step.durationMs === 0)}</Text>
    </Text>
  );
}

export const StepRow = memo(StepRowView);
