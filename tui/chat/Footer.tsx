import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { contextFill, formatCost, formatTokens } from './chat-format.js';
import type { ChatUsage } from './chat-state.js';
import { paint } from './chat-theme.js';

/** Props of the footer. */
export interface FooterProps {
  agentLabel: string;
  provider: string;
  model: string;
  usage: ChatUsage;
  contextWindow: number | undefined;
  iteration: number | undefined;
  approvalMode: string;
  running: boolean;
  color: boolean;
  /** A one-off hint (e.g. "press Ctrl+C again to quit"). */
  hint?: string | undefined;
}

/** Agent, provider/model, tokens, cost, context fill, iteration, approval mode, and the keys that matter now. */
export function Footer(props: FooterProps): ReactNode {
  const { usage, color } = props;
  const fill = contextFill(usage.lastPromptTokens, props.contextWindow);
  const parts = [
    props.agentLabel,
    `${props.provider}/${props.model}`,
    `${formatTokens(usage.totalTokens)} tokens`,
    formatCost(usage.costUsd),
    fill === undefined ? 'ctx ?' : fill === 0 && usage.lastPromptTokens > 0 ? 'ctx <1%' : `ctx ${fill}%`,
    ...(props.iteration === undefined ? [] : [`iter ${props.iteration}`]),
    `approve: ${props.approvalMode}`,
  ];
  const keys = props.hint ?? (props.running ? 'esc to cancel · ctrl+c twice to quit' : '/help for commands · ↑↓ history · ctrl+c twice to quit');
  return (
    <Box flexDirection="column">
      <Text {...paint(color, { dimColor: true })}>{parts.join(' · ')}</Text>
      <Text {...paint(color, props.hint === undefined ? { dimColor: true } : { color: 'yellow' })}>{keys}</Text>
    </Box>
  );
}
