import { Box, Text } from 'ink';
import { displayWidth } from '../../lib/core/display-width.js';
import { formatCostNarrow, formatDuration, formatTokens } from '../../lib/core/format-units.js';
import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';
import type { TraceData } from '../../lib/trace/trace-data.js';
import type { TraceTotals } from '../../lib/trace/totals.js';
import { runOutcome } from '../../lib/trace/run-outcome.js';
import { fit, oneLine } from './format.js';

interface Props {
  trace: TraceData;
  totals: TraceTotals;
  width: number;
}

/** The colour of the run status: as the chat's trace pane (red failed, yellow cut short, green done). */
const STATUS_COLOR = { ok: 'green', stopped: 'yellow', error: 'red' } as const;

/** Two lines: what ran (agent, model, status, run id), then the totals (duration, steps, tokens, cost). */
export function Header({ trace, totals, width }: Props) {
  // Run fields come from the trace file: one line each, no escape sequences.
  const clean = (text: string): string => oneLine(sanitizeForTerminal(text));
  // A trace its run never finished (killed, or still running) says so, in the colour of a cut-short run.
  const status = trace.incomplete === true ? clean(trace.status === undefined ? 'incomplete' : `${trace.status}, incomplete`) : clean(trace.status ?? (totals.errors > 0 ? 'error' : 'unknown'));
  const outcome = trace.incomplete === true ? 'stopped' : runOutcome(status);
  const model = clean([trace.provider, trace.model].filter(Boolean).join('/'));
  const title = `trace ${clean(trace.agentName ?? trace.runId)}${model ? ` · ${model}` : ''}`;
  const runId = ` · run ${clean(trace.runId)}`;
  const tokens = `tokens ${formatTokens(totals.totalTokens)}`;
  const line = (tokenText: string): string =>
    [
      `duration ${formatDuration(totals.durationMs)}`,
      `steps ${totals.steps}`,
      `llm ${totals.llmCalls}`,
      `tools ${totals.toolCalls}`,
      `errors ${totals.errors}`,
      tokenText,
      `cost ${formatCostNarrow(totals.costUsd, Infinity) || '$0'}`,
    ].join(' · ');
  // The in / out split goes first when the line is too wide: the cost at its end stays whole.
  const full = line(`${tokens} (${formatTokens(totals.promptTokens)} in / ${formatTokens(totals.completionTokens)} out)`);
  const line2 = displayWidth(full) <= width ? full : line(tokens);
  const statusWidth = displayWidth(status);
  const shownTitle = fit(title, Math.max(10, width - statusWidth - 3));
  const room = width - displayWidth(shownTitle) - statusWidth - 3;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text bold>{shownTitle}</Text>
        <Text> · </Text>
        <Text color={STATUS_COLOR[outcome]}>{status}</Text>
        <Text dimColor>{fit(runId, Math.max(0, room))}</Text>
      </Text>
      <Text wrap="truncate">{fit(line2, width)}</Text>
    </Box>
  );
}
