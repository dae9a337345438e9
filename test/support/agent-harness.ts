import { z } from 'zod';
import { sequentialIds } from '../../lib/core/ids.js';
import type { AgentRuntime } from '../../lib/agent/types.js';
import type { AgentEvent, AgentEventType } from '../../lib/events/types.js';
import { tool } from '../../lib/tools/tool.js';
import type { Tool } from '../../lib/tools/types.js';

/** A deterministic runtime: sequential ids, a clock that ticks 1 ms per read, instant sleeps (recorded). */
export function testRuntime(): AgentRuntime & { sleeps: number[] } {
  let t = 1_700_000_000_000;
  const sleeps: number[] = [];
  return {
    now: () => t++,
    generateId: sequentialIds(),
    sleep: async (ms: number, signal?: AbortSignal) => {
      sleeps.push(ms);
      if (signal?.aborted) throw signal.reason as Error;
    },
    random: () => 0.5,
    sleeps,
  };
}

/** Collects events by type. */
export function eventLog(): { observer: { onEvent: (e: AgentEvent) => void }; events: AgentEvent[]; types: () => AgentEventType[]; of: <T extends AgentEventType>(type: T) => Extract<AgentEvent, { type: T }>[] } {
  const events: AgentEvent[] = [];
  return {
    observer: { onEvent: (e: AgentEvent) => void events.push(e) },
    events,
    types: () => events.map((e) => e.type),
    of: <T extends AgentEventType>(type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type),
  };
}

/** `get_weather(city)` → a JSON report; records calls. */
export function weatherTool(calls: string[] = []): Tool {
  return tool({
    name: 'get_weather',
    description: 'Get the current weather for a city',
    parameters: z.object({ city: z.string(), unit: z.enum(['c', 'f']).default('c') }),
    execute: ({ city, unit }) => {
      calls.push(city);
      return { city, unit, temperature: 21 };
    },
  });
}

/**
 * A tool that waits `ms` (honouring its signal only when `honourSignal`) and returns its name.
 * `onStart` runs once the tool is executing (a test cancels there instead of after a fixed delay).
 */
export function slowTool(name: string, ms: number, log: string[], honourSignal = true, onStart?: () => void): Tool {
  return tool({
    name,
    description: `Waits ${ms} ms and reports back`,
    parameters: z.object({}),
    execute: async (_args, ctx) => {
      log.push(`start:${name}`);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        if (honourSignal) ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))), { once: true });
        onStart?.();
      });
      log.push(`end:${name}`);
      return `${name} done`;
    },
  });
}
