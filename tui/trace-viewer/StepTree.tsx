import { Box, Text } from 'ink';
import { COST_WIDTH, DURATION_WIDTH, TOKENS_WIDTH } from './layout.js';
import { StepRow } from './StepRow.js';
import type { VisibleRow } from './tree-model.js';
import { fit } from './format.js';

interface Props {
  rows: readonly VisibleRow[];
  selected: number;
  /** First row of the window. */
  top: number;
  /** Rows in the window: only these are rendered, however long the trace. */
  height: number;
  focused: boolean;
  labelWidth: number;
  barWidth: number;
  runStart: number;
  runDurationMs: number;
}

/** Column titles, then the window `rows[top … top + height)` (a virtualised list), padded to `height` lines. */
export function StepTree({ rows, selected, top, height, focused, labelWidth, barWidth, runStart, runDurationMs }: Props) {
  const window = rows.slice(top, top + height);
  const titles =
    ' ' +
    fit('step', labelWidth, true) +
    ' ' +
    'time'.padStart(DURATION_WIDTH) +
    ' ' +
    'tokens'.padStart(TOKENS_WIDTH) +
    ' ' +
    'cost'.padStart(COST_WIDTH) +
    ' ' +
    fit(`waterfall${rows.length > height ? `  ${top + 1}-${top + window.length}/${rows.length}` : ''}`, barWidth);
  return (
    <Box flexDirection="column" height={height + 1}>
      <Text dimColor wrap="truncate">
        {titles}
      </Text>
      {window.length === 0 ? <Text dimColor> No steps match the filter.</Text> : null}
      {window.map((row, offset) => (
        <StepRow
          key={row.node.step.id}
          row={row}
          selected={top + offset === selected}
          focused={focused}
          labelWidth={labelWidth}
          barWidth={barWidth}
          runStart={runStart}
          runDurationMs={runDurationMs}
        />
      ))}
    </Box>
  );
}
