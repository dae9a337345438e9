import type { TreeAction } from './tree-reducer.js';

/** The parts of Ink's `Key` the viewer reads. */
export interface KeyLike {
  upArrow: boolean;
  downArrow: boolean;
  leftArrow: boolean;
  rightArrow: boolean;
  pageUp: boolean;
  pageDown: boolean;
  home: boolean;
  end: boolean;
  return: boolean;
  escape: boolean;
  ctrl: boolean;
  tab: boolean;
  backspace: boolean;
  delete: boolean;
  meta: boolean;
}

/** Which part has the keys. */
export interface KeyMode {
  focus: 'tree' | 'detail';
  /** The `/` text filter prompt is open. */
  editing: boolean;
}

/** What a key press means. */
export type ViewerCommand =
  | { kind: 'tree'; action: TreeAction }
  | { kind: 'quit' }
  | { kind: 'switch-focus' }
  | { kind: 'detail-scroll'; delta: number | 'page-up' | 'page-down' | 'home' | 'end' }
  | { kind: 'edit-start' }
  | { kind: 'edit-input'; text: string }
  | { kind: 'edit-backspace' }
  | { kind: 'edit-apply' }
  | { kind: 'edit-cancel' }
  | { kind: 'clear-text' };

const tree = (action: TreeAction): ViewerCommand => ({ kind: 'tree', action });

/** Maps a key press to a command (undefined: ignored). Pure, so the key map is tested without a terminal. */
export function keyToCommand(input: string, key: KeyLike, mode: KeyMode): ViewerCommand | undefined {
  if (mode.editing) {
    if (key.return) return { kind: 'edit-apply' };
    if (key.escape) return { kind: 'edit-cancel' };
    if (key.backspace || key.delete) return { kind: 'edit-backspace' };
    if (key.ctrl || key.meta || key.tab || input === '') return undefined;
    return { kind: 'edit-input', text: input.replace(/[\r\n]/g, '') };
  }
  if (input === 'q') return { kind: 'quit' };
  if (key.tab) return { kind: 'switch-focus' };
  if (input === 'e') return tree({ type: 'toggle-errors' });
  if (input === 't') return tree({ type: 'cycle-type' });
  if (input === '/') return { kind: 'edit-start' };
  if (key.escape) return { kind: 'clear-text' };
  if (mode.focus === 'detail') {
    if (key.upArrow || input === 'k') return { kind: 'detail-scroll', delta: -1 };
    if (key.downArrow || input === 'j') return { kind: 'detail-scroll', delta: 1 };
    if (key.pageUp) return { kind: 'detail-scroll', delta: 'page-up' };
    if (key.pageDown || input === ' ') return { kind: 'detail-scroll', delta: 'page-down' };
    if (key.home || input === 'g') return { kind: 'detail-scroll', delta: 'home' };
    if (key.end || input === 'G') return { kind: 'detail-scroll', delta: 'end' };
    return undefined;
  }
  if (key.upArrow || input === 'k') return tree({ type: 'move', delta: -1 });
  if (key.downArrow || input === 'j') return tree({ type: 'move', delta: 1 });
  if (key.pageUp) return tree({ type: 'page', direction: -1 });
  if (key.pageDown || input === ' ') return tree({ type: 'page', direction: 1 });
  if (key.home || input === 'g') return tree({ type: 'home' });
  if (key.end || input === 'G') return tree({ type: 'end' });
  if (key.leftArrow || input === 'h') return tree({ type: 'fold' });
  if (key.rightArrow || input === 'l') return tree({ type: 'unfold' });
  if (key.return) return tree({ type: 'toggle' });
  return undefined;
}

/** The key of one plain character (Enter, Tab and Backspace included), as Ink would report it alone. */
export function plainKey(char: string): KeyLike {
  return {
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageUp: false,
    pageDown: false,
    home: false,
    end: false,
    return: char === '\r' || char === '\n',
    escape: false,
    ctrl: false,
    tab: char === '\t',
    backspace: char === '\u007f' || char === '\b',
    delete: false,
    meta: false,
  };
}
