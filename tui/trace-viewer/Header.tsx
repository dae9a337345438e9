import { Box, Text } from 'ink';
import { displayWidth } from '../../lib/core/display-width.js';
import { formatCostNarrow, formatDuration, formatTokens } from '../../lib/core/format-units.js';
import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';
import type { TraceData } from '../../lib/trace/trace-data.js';
import type { TraceTotals } from '../../lib/trace/totals.js';
import { fit, oneLine } from './format.js';

interface Props {
  trace: TraceData;
  totals: TraceTotals;
  width: number;
}

/** Two lines: what ran (agent, model, status, run id), then the totals (duration, steps, tokens, cost). */
export function Header({ trace, totals, width }: Props) {
  // Run fields come from the trace file: one line each, no escape sequences.
  const clean = (text: string): string => oneLine(sanitizeForTerminal(text));
  const status = clean(trace.status ?? (totals.errors > 0 ? 'error' : 'unknown'));
  const failed = /error|fail/i.test(status);
  const model = clean([trace.provider, trace.model].filter(Boolean).join('/'));
  const title = `trace ${clean(trace.agentName ?? trace.runId)}${model ? ` · ${model}` : ''}`;
  const runId = ` · run ${clean(trace.runId)}`;
  const tokens = `tokens ${formatTokens(totals.totalTokens)} (${formatTokens(totals.promptTokens)} in / ${formatTokens(totals.completionTokens)} out)`;
  const line2 = [
    `duration ${formatDuration(totals.durationMs)}`,
    `steps ${totals.steps}`,
    `llm ${totals.llmCalls}`,
    `tools ${totals.toolCalls}`,
    `errors ${totals.errors}`,
    tokens,
    `cost ${formatCostNarrow(totals.costUsd) || '$0'}`,
  ].join(' · ');
  const statusWidth = displayWidth(status);
  const shownTitle = fit(title, Math.max(10, width - statusWidth - 3));
  const room = width - displayWidth(shownTitle) - statusWidth - 3;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text bold>{shownTitle}</Text>
        <Text> · </Text>
        <Text color={failed ? 'red' : 'green'}>{status}</Text>
        <Text dimColor>{fit(runId, Math.max(0, room))}</Text>
      </Text>
      <Text wrap="truncate">{fit(line2, width)}</Text>
    </Box>
  );
}
