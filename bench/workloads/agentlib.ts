// agentlib: an Agent with the tool, a ScriptedProvider (zero latency, no request recording), the
// trace (always on) and one observer whose onEvent counts events. Each run is `agent.ask` (stateless).
// agentlib is measured as users run it: the compiled dist/ (`npm run build`), like the peers'
// published JavaScript. Types come from the sources; the runtime modules from dist/.
import type * as LibraryModule from '../../lib/index.js';
import type * as TestLibraryModule from '../../lib/test/index.js';
import type { ScriptedReply } from '../../lib/providers/scripted.js';
import { z } from 'zod';

type Library = typeof LibraryModule;
type TestLibrary = typeof TestLibraryModule;
const dist = (path: string): string => new URL(`../../dist/lib/${path}`, import.meta.url).href;
const { Agent, tool } = (await import(dist('index.js'))) as Library;
const { ScriptedProvider } = (await import(dist('test/index.js'))) as TestLibrary;
import {
  FINAL_TEXT,
  INSTRUCTIONS,
  PROMPT,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  USAGE,
  weatherFor,
  type BenchTarget,
  type Framework,
  type Workload,
} from '../lib/scenario.js';

function setup(workload: Workload): BenchTarget {
  let toolRuns = 0;
  let events = 0;
  let runs = 0;
  const provider = new ScriptedProvider({
    record: false,
    // Last message from the user → the tool calls; from a tool → the final text.
    respond: (request): ScriptedReply => {
      const last = request.messages[request.messages.length - 1];
      if (workload.calls.length === 0 || last?.role !== 'user') {
        return { text: FINAL_TEXT, usage: { ...USAGE } };
      }
      return {
        toolCalls: workload.calls.map((call) => ({ id: call.id, toolName: TOOL_NAME, parameters: { city: call.city } })),
        usage: { ...USAGE },
      };
    },
  });
  const getWeather = tool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      toolRuns++;
      return weatherFor(city);
    },
  });
  const agent = new Agent({
    provider,
    systemPrompt: INSTRUCTIONS,
    tools: [getWeather],
    observers: [
      {
        onEvent: () => {
          events++;
        },
      },
    ],
  });
  let traceSteps = 0;
  return {
    async run() {
      const result = await agent.ask(PROMPT);
      runs++;
      traceSteps = result.trace.steps.length;
      return result.content;
    },
    toolRuns: () => toolRuns,
    describe: () => `${(events / Math.max(runs, 1)).toFixed(1)} events/run, ${traceSteps} trace steps`,
  };
}

export const framework: Framework = { name: 'agentlib', version: 'agentlib (this checkout)', setup };
