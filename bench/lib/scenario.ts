// The fake model's script, shared by every framework: same prompt, tool, texts, tool calls and
// usage numbers. Nothing here imports a framework, so the root type-check can see this file.

/** The prompt of every run. */
export const PROMPT = 'Weather in Paris?';

/** The system prompt / instructions every agent gets. */
export const INSTRUCTIONS = 'You answer weather questions.';

/** The final answer of every workload. */
export const FINAL_TEXT = 'It is 21 degrees and sunny in Paris.';

/** Token usage the fake model reports for every call. */
export const USAGE = { promptTokens: 12, completionTokens: 8 } as const;

/** The tool every agent has (registered in all workloads, used in b and c). */
export const TOOL_NAME = 'get_weather';
export const TOOL_DESCRIPTION = 'Get the weather for a city';

/** What the tool returns for a city (the frameworks serialise it as they do). */
export function weatherFor(city: string): { city: string; temperature: number } {
  return { city, temperature: 21 };
}

const CITIES = ['Paris', 'London', 'Berlin', 'Madrid', 'Rome'] as const;

/** One tool call the fake model asks for; `arguments` is the JSON the wire would carry. */
export interface ScriptedCall {
  id: string;
  city: string;
  arguments: string;
}

export interface Workload {
  /** Short id used on the command line and in the JSON: `a`, `b`, `c`. */
  id: 'a' | 'b' | 'c';
  name: string;
  /** Tool calls of the first model turn; empty: the first turn is the answer. */
  calls: readonly ScriptedCall[];
  /** Model calls per run. */
  modelCalls: number;
}

function calls(count: number): ScriptedCall[] {
  return CITIES.slice(0, count).map((city, index) => ({
    id: `call_${index + 1}`,
    city,
    arguments: JSON.stringify({ city }),
  }));
}

export const WORKLOADS: readonly Workload[] = [
  { id: 'a', name: 'one-turn answer', calls: [], modelCalls: 1 },
  { id: 'b', name: '1 tool call + answer', calls: calls(1), modelCalls: 2 },
  { id: 'c', name: '5 parallel tool calls + answer', calls: calls(5), modelCalls: 2 },
];

/** Upper bound on model steps/turns given to the peers (agentlib uses its default cap). */
export const MAX_STEPS = 5;

/** A framework set up for one workload: `run` does one complete agent run and returns its final text. */
export interface BenchTarget {
  run(): Promise<string>;
  /** How many times the tool has run since setup. */
  toolRuns(): number;
  /** Between samples, outside the timed region: drop whatever the fake model recorded. */
  clear?(): void;
  /** Extra facts printed once by the correctness check (e.g. events per run). */
  describe?(): string;
}

/** What a framework module (agentlib, peers) exports as `framework`. */
export interface Framework {
  /** Column name: `agentlib`, `ai-sdk`, `openai-agents`. */
  name: string;
  /** Package and version, for the report. */
  version: string;
  setup(workload: Workload): Promise<BenchTarget> | BenchTarget;
}
