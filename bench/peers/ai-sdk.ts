// Vercel AI SDK v6: generateText with MockLanguageModelV3 (ai/test), a tool() with a zod inputSchema,
// multi-step through stopWhen: stepCountIs(MAX_STEPS).
import type { LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
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

// (Return type inferred, not annotated: lint stays clean even before bench/node_modules exists.)
function reply(content: LanguageModelV3Content[], toolCalls: boolean) {
  return {
    content,
    finishReason: { unified: toolCalls ? ('tool-calls' as const) : ('stop' as const), raw: undefined },
    usage: {
      inputTokens: { total: USAGE.promptTokens, noCache: USAGE.promptTokens, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: USAGE.completionTokens, text: USAGE.completionTokens, reasoning: undefined },
    },
    warnings: [] as never[],
  };
}

function setup(workload: Workload): BenchTarget {
  let toolRuns = 0;
  const model = new MockLanguageModelV3({
    // Last prompt message from the user → the tool calls; from a tool → the final text.
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      const last = options.prompt[options.prompt.length - 1];
      if (workload.calls.length === 0 || last?.role !== 'user') {
        return reply([{ type: 'text', text: FINAL_TEXT }], false);
      }
      const content: LanguageModelV3Content[] = workload.calls.map((call) => ({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: TOOL_NAME,
        input: call.arguments,
      }));
      return reply(content, true);
    },
  });
  const tools = {
    [TOOL_NAME]: tool({
      description: TOOL_DESCRIPTION,
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        toolRuns++;
        return weatherFor(city);
      },
    }),
  };
  return {
    async run() {
      const result = await generateText({
        model,
        tools,
        system: INSTRUCTIONS,
        prompt: PROMPT,
        stopWhen: stepCountIs(MAX_STEPS),
      });
      const text: string = result.text;
      return text;
    },
    toolRuns: () => toolRuns,
    // MockLanguageModelV3 keeps every call's options; drop them between samples.
    clear: () => {
      model.doGenerateCalls.length = 0;
    },
  };
}

export const framework: Framework = { name: 'ai-sdk', version: packageVersion('ai'), setup };
