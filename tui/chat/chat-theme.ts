import type { TextProps } from 'ink';
import type { ToolStatus, TraceRowStatus } from './chat-state.js';

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

/**
 * Status glyphs of the live trace pane's rows: like the tool cards' (and the trace viewer's) ⊷ ✓ x,
 * plus `!` for a run cut short (cancelled, max iterations, budget exceeded), yellow like the
 * transcript's line for such a turn.
 */
export const TRACE_GLYPHS: Readonly<Record<TraceRowStatus, string>> = { running: '⊷', ok: '✓', stopped: '!', error: 'x' };

/** Colours of the trace pane's status glyphs. */
export const TRACE_COLORS: Readonly<Record<TraceRowStatus, string>> = { running: 'yellow', ok: 'green', stopped: 'yellow', error: 'red' };

/** Style props for Ink's <Text>, or none at all when colour is off (NO_COLOR / --no-color). */
export function paint(color: boolean, props: Pick<TextProps, 'color' | 'bold' | 'dimColor' | 'italic' | 'underline' | 'inverse'>): TextProps {
  return color ? props : {};
}

/** The colour of a tool status. */
export function toolColor(status: ToolStatus): string {
  return TOOL_COLORS[status];
}
