// OpenAI Agents SDK: an Agent with a tool() and a fake Model passed as `model`, run with run(agent, input).
// Tracing is disabled (setTracingDisabled(true)) so that no trace processor runs or exports.
import {
  Agent,
  run,
  setTracingDisabled,
  tool,
  Usage,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents';
import { z } from 'zod';
import { packageVersion } from '../lib/package-version.js';
import {
  FINAL_TEXT,
  INSTRUCTIONS,
  MAX_STEPS,
  PROMPT,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  USAGE,
  weatherFor,
  type BenchTarget,
  type Framework,
  type Workload,
} from '../lib/scenario.js';

setTracingDisabled(true);

/** A zero-latency Model: the tool calls when the last input item is the user's, else the final text. */
class ScriptedModel implements Model {
  constructor(private readonly workload: Workload) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = request.input;
    const last = typeof input === 'string' ? undefined : input[input.length - 1];
    const fromUser = typeof input === 'string' || (last !== undefined && 'role' in last && last.role === 'user');
    const output: AgentOutputItem[] =
      this.workload.calls.length === 0 || !fromUser
        ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: FINAL_TEXT }] }]
        : this.workload.calls.map((call) => ({
            type: 'function_call',
            callId: call.id,
            name: TOOL_NAME,
            arguments: call.arguments,
            status: 'completed',
          }));
    return {
      usage: new Usage({
        requests: 1,
        inputTokens: USAGE.promptTokens,
        outputTokens: USAGE.completionTokens,
        totalTokens: USAGE.promptTokens + USAGE.completionTokens,
      }),
      output,
    };
  }

  async *getStreamedResponse(_request: ModelRequest): AsyncIterable<StreamEvent> {
    throw new Error('the benchmark does not stream');
  }
}

function setup(workload: Workload): BenchTarget {
  let toolRuns = 0;
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
    name: 'bench',
    instructions: INSTRUCTIONS,
    model: new ScriptedModel(workload),
    tools: [getWeather],
  });
  return {
    async run() {
      const result = await run(agent, PROMPT, { maxTurns: MAX_STEPS });
      const output: unknown = result.finalOutput;
      return typeof output === 'string' ? output : JSON.stringify(output);
    },
    toolRuns: () => toolRuns,
  };
}

export const framework: Framework = { name: 'openai-agents', version: packageVersion('@openai/agents'), setup };
