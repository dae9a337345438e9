import type { TextProps } from 'ink';
import type { ToolStatus } from './chat-state.js';

/** Status glyphs of tool cards. */
export const TOOL_GLYPHS: Readonly<Record<ToolStatus, string>> = {
  pending: '⊷',
  running: '⊷',
  approval: '?',
  success: '✓',
  error: 'x',
  denied: 'x',
};

const TOOL_COLORS: Readonly<Record<ToolStatus, string>> = {
  pending: 'yellow',
  running: 'yellow',
  approval: 'magenta',
  success: 'green',
  error: 'red',
  denied: 'red',
};

/** Style props for Ink's <Text>, or none at all when colour is off (NO_COLOR / --no-color). */
export function paint(color: boolean, props: Pick<TextProps, 'color' | 'bold' | 'dimColor' | 'italic' | 'underline' | 'inverse'>): TextProps {
  return color ? props : {};
}

/** The colour of a tool status. */
export function toolColor(status: ToolStatus): string {
  return TOOL_COLORS[status];
}
