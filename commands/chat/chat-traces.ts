import type { TurnTraces } from '../../tui/chat/turn-trace.js';
import { LiveTrace } from '../run/live-trace.js';
import { DEFAULT_TRACE_DIR } from '../run/save-trace.js';

/** The traces a chat saved, and the factory that saves one per turn. */
export interface ChatTraces {
  /** Starts the trace of a turn: `.agentlib/traces/<runId>.jsonl`, written as the turn runs (like `agentlib run`). */
  traces: TurnTraces;
  /** The files saved so far, as shown to the user. */
  readonly saved: readonly string[];
}

/** One trace per chat turn under `cwd`, in the directory `agentlib run` uses. */
export function chatTraces(cwd: string): ChatTraces {
  const saved: string[] = [];
  return {
    saved,
    traces: () => {
      const live = new LiveTrace(undefined, cwd);
      return {
        handle: (event) => live.handle(event),
        finish: async (result) => {
          const path = await live.finish(result);
          if (path !== undefined) saved.push(path);
          return path;
        },
      };
    },
  };
}

/** What `agentlib chat` prints on exit about the traces it saved (nothing when there are none). */
export function savedTracesMessage(saved: readonly string[]): string {
  const last = saved.at(-1);
  if (last === undefined) return '';
  const what = saved.length === 1 ? 'the trace of 1 turn' : `the traces of ${saved.length} turns`;
  return `Saved ${what} in ${DEFAULT_TRACE_DIR} (the last: ${last}). List them with "agentlib trace ls"; open the latest with "agentlib trace view".\n`;
}
