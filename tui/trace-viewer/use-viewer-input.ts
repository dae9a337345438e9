import { useApp, useInput } from 'ink';
import { useReducer, useRef } from 'react';
import { keyToCommand, plainKey, type KeyLike, type ViewerCommand } from './keymap.js';
import type { TreeAction } from './tree-reducer.js';

/** Focus, text-filter prompt and detail scroll: the viewer's state outside the step list. */
export interface ViewerInput {
  focus: 'tree' | 'detail';
  /** The `/` prompt's text while it is open, else undefined. */
  draft: string | undefined;
  /** First detail line shown (reset when the selection changes). */
  detailTop: number;
}

interface Options {
  dispatch: (action: TreeAction) => void;
  /** The applied text filter (Enter applies the draft, Esc clears it). */
  text: string;
  selectedId: string | undefined;
  detailLineCount: number;
  detailRows: number;
  onQuit?: (() => void) | undefined;
}

interface UiState {
  focus: 'tree' | 'detail';
  draft: string | undefined;
  /** Detail scroll position and the step it belongs to. */
  scroll: { id: string | undefined; top: number };
}

/**
 * Reads the keyboard (see keymap.ts) and applies each key to the tree or the viewer state. The state
 * is kept in a ref and read by the handler directly, so keys arriving together (a paste, tmux
 * send-keys, key repeat) each see the previous key's effect rather than a stale render.
 */
export function useViewerInput(options: Options): ViewerInput {
  const { exit } = useApp();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const ui = useRef<UiState>({ focus: 'tree', draft: undefined, scroll: { id: options.selectedId, top: 0 } });
  const latest = useRef(options);
  latest.current = options;

  const detailTopOf = (state: UiState, opts: Options): number => {
    const maxTop = Math.max(0, opts.detailLineCount - opts.detailRows);
    return state.scroll.id === opts.selectedId ? Math.min(state.scroll.top, maxTop) : 0;
  };

  const apply = (command: ViewerCommand): void => {
    const opts = latest.current;
    const state = ui.current;
    const set = (patch: Partial<UiState>): void => {
      ui.current = { ...state, ...patch };
      rerender();
    };
    switch (command.kind) {
      case 'tree':
        opts.dispatch(command.action);
        return;
      case 'quit':
        opts.onQuit?.();
        exit();
        return;
      case 'switch-focus':
        set({ focus: state.focus === 'tree' ? 'detail' : 'tree' });
        return;
      case 'detail-scroll': {
        const { delta } = command;
        const maxTop = Math.max(0, opts.detailLineCount - opts.detailRows);
        const top = detailTopOf(state, opts);
        const page = Math.max(1, opts.detailRows - 1);
        const next = delta === 'home' ? 0 : delta === 'end' ? maxTop : delta === 'page-up' ? top - page : delta === 'page-down' ? top + page : top + delta;
        set({ scroll: { id: opts.selectedId, top: Math.max(0, Math.min(maxTop, next)) } });
        return;
      }
      case 'edit-start':
        set({ draft: opts.text });
        return;
      case 'edit-input':
        set({ draft: (state.draft ?? '') + command.text });
        return;
      case 'edit-backspace':
        set({ draft: [...(state.draft ?? '')].slice(0, -1).join('') });
        return;
      case 'edit-apply':
        opts.dispatch({ type: 'set-text', text: state.draft ?? '' });
        set({ draft: undefined });
        return;
      case 'edit-cancel':
      case 'clear-text':
        if (opts.text !== '') opts.dispatch({ type: 'set-text', text: '' });
        set({ draft: undefined });
        return;
    }
  };

  const handle = (input: string, key: KeyLike): void => {
    const command = keyToCommand(input, key, { focus: ui.current.focus, editing: ui.current.draft !== undefined });
    if (command) apply(command);
  };
  useInput((input, key) => {
    // Ink passes plain characters that arrive together ("jj", "h\r", a paste) as one input: take them one by one.
    const chars = [...input];
    if (chars.length > 1 && !key.ctrl && !key.meta) for (const char of chars) handle(char, plainKey(char));
    else handle(input, key);
  });
  return { focus: ui.current.focus, draft: ui.current.draft, detailTop: detailTopOf(ui.current, options) };
}
