import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { cutToWidth, displayWidth } from '../../lib/core/display-width.js';
import { contextFillText, formatCost, formatTokens } from './chat-format.js';
import type { ChatUsage } from './chat-state.js';
import { paint } from './chat-theme.js';
import { wrapText } from './text-rows.js';

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
  /** Terminal columns: the parts are packed into rows of this width. */
  width: number;
}

const SEPARATOR = ' · ';

/** Packs `parts` joined by ` · ` into rows of at most `width` columns (a part wider than a row is cut). */
export function packParts(parts: readonly string[], width: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const raw of parts) {
    const part = cutToWidth(raw, width);
    if (row === '') row = part;
    else if (displayWidth(row) + displayWidth(SEPARATOR) + displayWidth(part) <= width) row += SEPARATOR + part;
    else {
      rows.push(row);
      row = part;
    }
  }
  if (row !== '') rows.push(row);
  return rows;
}

/** The footer's rows at `props.width`: the status parts, then the keys (or the hint). Its height is their number. */
export function footerLines(props: Omit<FooterProps, 'color'>): { status: string[]; keys: string[] } {
  const { usage } = props;
  const fill = contextFillText(usage.lastPromptTokens, props.contextWindow);
  const parts = [
    props.agentLabel,
    `${props.provider}/${props.model}`,
    `${formatTokens(usage.totalTokens)} tokens`,
    formatCost(usage.costUsd),
    `ctx ${fill ?? '?'}`,
    ...(props.iteration === undefined ? [] : [`iter ${props.iteration}`]),
    `approve: ${props.approvalMode}`,
  ];
  const keys =
    props.hint !== undefined
      ? wrapText(props.hint, props.width)
      : packParts(props.running ? ['esc to cancel', 'ctrl+c twice to quit'] : ['/help for commands', '↑↓ history', 'ctrl+c twice to quit'], props.width);
  return { status: packParts(parts, props.width), keys };
}

/** Agent, provider/model, tokens, cost, context fill, iteration, approval mode, and the keys that matter now. */
export function Footer(props: FooterProps): ReactNode {
  const { color } = props;
  const { status, keys } = footerLines(props);
  return (
    <Box flexDirection="column">
      {status.map((row, i) => (
        <Text key={`s${i}`} wrap="truncate-end" {...paint(color, { dimColor: true })}>
          {row}
        </Text>
      ))}
      {keys.map((row, i) => (
        <Text key={`k${i}`} wrap="truncate-end" {...paint(color, props.hint === undefined ? { dimColor: true } : { color: 'yellow' })}>
          {row}
        </Text>
      ))}
    </Box>
  );
}
