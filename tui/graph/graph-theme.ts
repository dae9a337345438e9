import type { NodeStatus } from './graph-view-state.js';

/** Colours of node states (boxes in the drawing, glyphs in the node strip). */
export const NODE_COLORS: Readonly<Record<NodeStatus, string>> = { pending: 'gray', running: 'yellow', done: 'green', failed: 'red', interrupted: 'magenta', skipped: 'red' };

/** Glyphs of node states; a running node shows a spinner frame instead of its glyph. */
export const NODE_GLYPHS: Readonly<Record<NodeStatus, string>> = { pending: '○', running: '⊷', done: '✓', failed: 'x', interrupted: '?', skipped: '↷' };

/** The spinner of running nodes. */
export const SPINNER_FRAMES: readonly string[] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
