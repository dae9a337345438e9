import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { ScriptedProvider, type ScriptedReply } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import type { Tool } from '../../../lib/tools/types.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import type { BatchClock } from '../../../tui/chat/event-batcher.js';

/** `multiply(a, b)`; review-gated when `gated`. */
export function multiplyTool(gated = false): Tool {
  return tool({
    name: 'multiply',
    description: 'Multiply two integers exactly.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    requiresApproval: gated,
    execute: ({ a, b }) => String(a * b),
  });
}

/** `lines(n)`: n lines of output (for cut tool output); review-gated when `gated`. */
export function linesTool(gated = false): Tool {
  return tool({
    name: 'lines',
    description: 'Print n lines.',
    parameters: z.object({ n: z.number() }),
    requiresApproval: gated,
    execute: ({ n }) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n'),
  });
}

/** An Agent on a ScriptedProvider. */
export function scriptedAgent(replies: ScriptedReply[], tools: Tool[] = [], extra: { approvalTimeout?: number } = {}): { agent: Agent; provider: ScriptedProvider } {
  const provider = new ScriptedProvider({ replies, usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 } });
  const agent = new Agent({ name: 'tester', provider, model: 'gpt-4o-mini', tools, ...extra });
  return { agent, provider };
}

/** Polls until `check` holds (default 10 s). */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Lets React and Ink process input. */
export const tick = (ms = 20): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let clock = 1_700_000_000_000;
/** Builds an event with the common fields. */
export function ev<T extends AgentEvent['type']>(type: T, payload: Omit<Extract<AgentEvent, { type: T }>, 'type' | 'runId' | 'timestamp'>, runId = 'run_1'): AgentEvent {
  return { type, runId, timestamp: clock++, ...payload } as unknown as AgentEvent;
}

/** A virtual clock: time moves only on `advance`, and timers fire as it passes them. */
export function virtualClock(start = 1_000_000): BatchClock & { advance: (ms: number) => void } {
  let now = start;
  let timers: { at: number; callback: () => void; id: number }[] = [];
  let ids = 0;
  return {
    now: () => now,
    setTimeout: (callback, ms) => {
      const id = ++ids;
      timers.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((t) => t.id !== handle);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers = timers.filter((t) => t !== next);
        now = next.at;
        next.callback();
      }
      now = end;
    },
  };
}
