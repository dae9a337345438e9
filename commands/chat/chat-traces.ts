import type { AgentResult } from '../../lib/agent/result.js';
import { TraceRecorder } from '../../lib/trace/recorder.js';
import type { TraceStore } from '../../lib/trace/stores/types.js';
import type { TurnTraces } from '../../tui/chat/turn-trace.js';

/** The traces a chat saved, and the factory that saves one per turn. */
export interface ChatTraces {
  /** Starts the trace of a turn: saved to the store when the turn ends. */
  traces: TurnTraces;
  /** The run ids saved so far. */
  readonly saved: readonly string[];
}

/**
 * One trace per chat turn, saved to `store` when the turn ends (before the prompt comes back): the
 * turn's result's trace (a failed or cancelled turn's too), or — a turn that ended without a
 * result — the one recorded from its events.
 */
export function chatTraces(store: TraceStore): ChatTraces {
  const saved: string[] = [];
  return {
    saved,
    traces: () => {
      let recorder: TraceRecorder | undefined;
      return {
        handle: (event) => {
          if (recorder === undefined) {
            if (event.type !== 'run-start') return;
            recorder = new TraceRecorder({ runId: event.runId, ...(event.parentRunId === undefined ? {} : { parentRunId: event.parentRunId }) });
          }
          recorder.handle(event);
        },
        finish: async (result: AgentResult | undefined) => {
          if (result === undefined && recorder === undefined) return undefined;
          if (result === undefined) recorder?.close();
          const trace = result?.trace ?? recorder?.trace;
          if (trace === undefined) return undefined;
          await store.save(trace.toJSON());
          saved.push(trace.runId);
          return trace.runId;
        },
      };
    },
  };
}

/** What `agentlib chat` prints on exit about the traces it saved to `storeUrl` (nothing when there are none). */
export function savedTracesMessage(saved: readonly string[], storeUrl: string): string {
  const last = saved.at(-1);
  if (last === undefined) return '';
  const what = saved.length === 1 ? 'the trace of 1 turn' : `the traces of ${saved.length} turns`;
  return `Saved ${what} to ${storeUrl} (the last: ${last}). List them with "agentlib trace ls --store ${storeUrl}"; open the latest with "agentlib trace view --store ${storeUrl}".\n`;
}
