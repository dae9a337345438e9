import { Text } from 'ink';
import type { ReactNode } from 'react';
import { formatCost, formatTokens } from '../chat/chat-format.js';
import { paint } from '../chat/chat-theme.js';
import type { GraphViewState } from './graph-view-state.js';

const OUTCOME_COLORS: Readonly<Record<string, string>> = { completed: 'green', interrupted: 'magenta', cancelled: 'yellow', 'budget-exceeded': 'yellow' };

/** `graph review · step 3 · 1.2k tokens · $0.0012 · running write, check` (or how the run ended). */
export function StatusBar({ state, color }: { state: GraphViewState; color: boolean }): ReactNode {
  const names = state.running.map((key) => key.split('__').at(-1) ?? key);
  const phase =
    state.outcome !== undefined
      ? state.outcome.status === 'interrupted'
        ? 'waiting for your answer'
        : `${state.outcome.status}${state.outcome.message === undefined ? '' : `: ${state.outcome.message}`}`
      : names.length > 0
        ? `running ${names.join(', ')}`
        : 'starting';
  const phaseColor = state.outcome === undefined ? 'yellow' : (OUTCOME_COLORS[state.outcome.status] ?? 'red');
  return (
    <Text wrap="truncate-end">
      <Text {...paint(color, { bold: true })}>graph {state.graph}</Text>
      <Text {...paint(color, { dimColor: true })}>{` · step ${state.steps} · ${formatTokens(state.tokens)} tokens · ${formatCost(state.costUsd)} · `}</Text>
      <Text {...paint(color, { color: phaseColor })}>{phase}</Text>
    </Text>
  );
}
