import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../../lib/agent/agent.js';
import { ScriptedProvider } from '../../lib/providers/scripted.js';
import type { ScriptedReply } from '../../lib/providers/scripted-types.js';
import { tool } from '../../lib/tools/tool.js';
import type { Tool } from '../../lib/tools/types.js';
import type { AgentTrace } from '../../lib/trace/agent-trace.js';
import { main } from '../../cli/main.js';
import { traceCommand } from '../../cli/commands/trace-command.js';
import { memoryIO } from '../support/cli-io.js';

export const T0 = 1_700_000_000_000;

/**
 * A clock the test moves: LLM calls take 20 ms, tools the time they declare. Tool "sleeps" run
 * on virtual time: once every tool call of the round has started, they end in order of their
 * end time, one per macrotask, so a 10 ms call always ends (and is recorded) before a parallel
 * 60 ms one, however loaded the machine is. Real timers would race under load.
 */
export class TestClock {
  t: number;
  #expected = 0;
  #pending: Array<{ at: number; seq: number; release: () => void }> = [];
  #seq = 0;
  #fallback: ReturnType<typeof setTimeout> | undefined;

  constructor(start: number) {
    this.t = start;
  }

  /** The number of tool calls the next round starts in parallel. */
  expectCalls(count: number): void {
    this.#expected = count;
  }

  /** Resolves after `ms` of virtual time, in end-time order with the round's other calls. */
  sleep(ms: number): Promise<void> {
    return new Promise((release) => {
      this.#pending.push({ at: this.t + ms, seq: this.#seq++, release });
      if (this.#pending.length >= this.#expected) void this.#drain();
      // A call that never starts would hang the run; end what did start instead (the test then fails on its output).
      else this.#fallback ??= setTimeout(() => void this.#drain(), 2_000);
    });
  }

  async #drain(): Promise<void> {
    if (this.#fallback !== undefined) clearTimeout(this.#fallback);
    this.#fallback = undefined;
    const sleepers = this.#pending.sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.#pending = [];
    for (const sleeper of sleepers) {
      this.t = Math.max(this.t, sleeper.at);
      sleeper.release();
      // The released call finishes on microtasks (no timers or I/O on that path), so its end is recorded before the next one ends.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/** A tool that "takes" `ms` on the test clock, optionally failing. */
export function timedTool(name: string, ms: number, clock: TestClock, fail = false): Tool {
  return tool({
    name,
    description: `Takes ${ms} ms`,
    parameters: z.object({ city: z.string().optional() }),
    execute: async ({ city }) => {
      await clock.sleep(ms);
      if (fail) throw new Error(`${name} failed`);
      return city === undefined ? `${name} done` : `${name}: ${city} 21C`;
    },
  });
}

/** One scripted round: the tool calls of one LLM reply. */
export type Round = Array<{ tool: string; args?: Record<string, unknown> }>;

/**
 * Runs an agent on a scripted provider with a controlled clock starting at `start` and returns
 * its trace: each round is one LLM reply with those (parallel) tool calls, then a final answer.
 */
export async function scriptedTrace(options: { runId: string; agent: string; start: number; rounds: Round[]; failing?: string[] }): Promise<AgentTrace> {
  const clock = new TestClock(options.start);
  const replies: ScriptedReply[] = options.rounds.map((round, r) => ({
    toolCalls: round.map((call, i) => ({ id: `call_${r}_${i}`, toolName: call.tool, parameters: call.args ?? {} })),
    usage: { promptTokens: 100 + 50 * r, completionTokens: 20, totalTokens: 120 + 50 * r },
  }));
  replies.push({ text: 'all done', usage: { promptTokens: 300, completionTokens: 10, totalTokens: 310 } });
  const provider = new ScriptedProvider({
    defaultModel: 'gpt-4o-mini',
    respond: (_request, index) => {
      clock.t += 20;
      clock.expectCalls(options.rounds[index]?.length ?? 0);
      return replies[index] ?? 'done';
    },
  });
  const failing = new Set(options.failing ?? []);
  const durations: Record<string, number> = { slow_a: 60, slow_b: 10, get_weather: 30 };
  const tools = Object.entries(durations).map(([name, ms]) => timedTool(name, ms, clock, failing.has(name)));
  let n = 0;
  const agent = new Agent({
    name: options.agent,
    provider,
    tools,
    runtime: { now: () => clock.t, generateId: (prefix) => (prefix === 'run' ? options.runId : `${prefix ?? 'id'}_${++n}`) },
  });
  const result = await agent.run('go');
  return result.trace;
}

/** A scratch project directory with an empty `.agentlib/traces`. */
export function traceProject(): { dir: string; traces: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-trace-cli-'));
  const traces = join(dir, '.agentlib', 'traces');
  mkdirSync(traces, { recursive: true });
  return { dir, traces, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes raw text as a trace file. */
export function writeRaw(path: string, text: string): void {
  writeFileSync(path, text, 'utf8');
}

/** Runs `agentlib <argv>` in-process with only the trace command, capturing the output. */
export async function agentlibTrace(argv: string[], cwd: string, options: { columns?: number; isTTY?: boolean; stdinTTY?: boolean; env?: Record<string, string> } = {}): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO(options.env ?? {}, options.isTTY === undefined ? {} : { isTTY: options.isTTY });
  io.cwd = cwd;
  if (options.columns !== undefined) io.stdout.columns = options.columns;
  if (options.stdinTTY !== undefined) io.stdin = Object.assign(new (await import('node:stream')).PassThrough(), { isTTY: options.stdinTTY });
  const code = await main(argv, { io, commands: [traceCommand], handleSignals: false });
  return { code, out: io.out(), err: io.err() };
}
