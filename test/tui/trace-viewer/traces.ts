import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import type { TraceStep } from '../../../lib/trace/trace-step.js';

export const T0 = 1_700_000_000_000;

export function step(fields: Partial<TraceStep> & Pick<TraceStep, 'id' | 'type'>): TraceStep {
  const startedAt = fields.startedAt ?? T0;
  return { runId: 'run_1', startedAt, timestamp: new Date(startedAt).toISOString(), durationMs: 0, status: 'ok', ...fields };
}

/** An LLM call choosing two tools run in parallel (one fails), then a second LLM call answering. */
export function sampleTrace(): AgentTrace {
  return new AgentTrace({
    runId: 'run_1',
    agentName: 'weather',
    provider: 'openai',
    model: 'gpt-4o',
    startedAt: T0,
    endedAt: T0 + 400,
    status: 'completed',
    input: 'What are the weather and the time in Oulu?',
    output: 'Sunny, 21 °C in Oulu',
    steps: [
      step({
        id: 's1',
        type: 'llm_call',
        name: 'gpt-4o',
        startedAt: T0 + 10,
        durationMs: 100,
        input: '1 message, 2 tools',
        messages: [
          { role: 'user', content: 'What are the weather and the time in Oulu?' },
          { role: 'assistant', content: 'thinking', toolCalls: [{ name: 'get_weather', args: '{"city":"Oulu"}' }, { name: 'get_time', args: '{"tz":"Europe/Helsinki"}' }] },
        ],
        usage: { promptTokens: 50, completionTokens: 10, totalTokens: 60 },
        costUsd: 0.002,
        output: 'thinking',
      }),
      step({ id: 's2', parentId: 's1', type: 'tool_selection', startedAt: T0 + 110, name: 'get_weather, get_time', reasoning: 'need both the weather and the time', output: 'get_weather({"city":"Oulu"})\nget_time({"tz":"Europe/Helsinki"})' }),
      step({ id: 's4', parentId: 's2', type: 'tool_execution', name: 'get_time', startedAt: T0 + 120, durationMs: 30, input: '{"tz":"Europe/Helsinki"}', status: 'error', error: { name: 'ToolExecutionError', message: 'clock unavailable', toolName: 'get_time' } }),
      step({ id: 's3', parentId: 's2', type: 'tool_execution', name: 'get_weather', startedAt: T0 + 120, durationMs: 100, input: '{"city":"Oulu"}', output: '{"city":"Oulu","temperature":21}' }),
      step({ id: 's5', type: 'llm_call', name: 'gpt-4o', startedAt: T0 + 230, durationMs: 150, input: '5 messages', usage: { promptTokens: 80, completionTokens: 20, totalTokens: 100 }, costUsd: 0.003, output: 'Sunny, 21 °C in Oulu' }),
    ],
  });
}

/** A trace of `iterations` × 5 steps: llm_call → tool_selection → 3 parallel tool_executions (every 7th fails). */
export function bigTrace(iterations = 200): AgentTrace {
  const steps: TraceStep[] = [];
  let t = T0;
  let n = 0;
  for (let i = 0; i < iterations; i++) {
    const llm = `step_${++n}`;
    steps.push(step({ id: llm, type: 'llm_call', name: 'gpt-4o-mini', startedAt: t, durationMs: 400, input: `${2 + i * 4} messages`, output: `Calling tools for round ${i}`, usage: { promptTokens: 1200 + i * 40, completionTokens: 60, totalTokens: 1260 + i * 40 }, costUsd: 0.00021 }));
    t += 400;
    const selection = `step_${++n}`;
    steps.push(step({ id: selection, parentId: llm, type: 'tool_selection', name: 'search, fetch, summarize', startedAt: t, reasoning: `Round ${i}: look it up`, output: 'search({"q":"x"})\nfetch({"url":"https://example.com"})\nsummarize({})' }));
    for (const [k, name] of ['search', 'fetch', 'summarize'].entries()) {
      const failed = (n + k) % 7 === 0;
      steps.push(
        step({
          id: `step_${++n}`,
          parentId: selection,
          type: 'tool_execution',
          name,
          startedAt: t + 1,
          durationMs: 50 + k * 70,
          input: JSON.stringify({ round: i, tool: name }),
          ...(failed
            ? { status: 'error' as const, error: { name: 'ToolExecutionError', message: `${name} failed in round ${i}` } }
            : { output: `result of ${name} in round ${i} `.repeat(8) }),
        }),
      );
    }
    t += 200;
  }
  return new AgentTrace({ runId: 'run_big', agentName: 'researcher', provider: 'openai', model: 'gpt-4o-mini', startedAt: T0, endedAt: t, status: 'completed', steps });
}

/**
 * Steps with CJK names (two terminal columns a character), short and too long for the label
 * column; every step runs to the end of the run, so each row's bar reaches the last column.
 */
export function cjkTrace(): AgentTrace {
  const end = T0 + 1000;
  const until = (startedAt: number): Pick<TraceStep, 'startedAt' | 'durationMs'> => ({ startedAt, durationMs: end - startedAt });
  return new AgentTrace({
    runId: 'run_cjk',
    agentName: '天気エージェント',
    provider: 'openai',
    model: 'gpt-4o',
    startedAt: T0,
    endedAt: end,
    status: 'completed',
    steps: [
      step({ id: 'c1', type: 'llm_call', name: 'gpt-4o', ...until(T0), usage: { promptTokens: 50, completionTokens: 10, totalTokens: 60 }, costUsd: 0.002 }),
      step({ id: 'c2', parentId: 'c1', type: 'tool_selection', name: '天気予報', ...until(T0 + 100) }),
      step({ id: 'c3', parentId: 'c2', type: 'tool_execution', name: '東京の天気予報を調べるとても長い名前のツール（週間予報と気温と降水確率）', ...until(T0 + 200), input: '{"都市":"東京"}', output: '晴れ、最高気温は二十五度、降水確率は十パーセントです。'.repeat(4) }),
      step({ id: 'c4', parentId: 'c2', type: 'tool_execution', name: 'ツール', ...until(T0 + 200), status: 'error', error: { name: 'ToolExecutionError', message: '接続できませんでした' } }),
    ],
  });
}
