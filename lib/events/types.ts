import type { AgentUsageJSON, UsageStats, UsageTotals } from '../core/usage.js';
import type { ToolCall } from '../core/tool-call.js';
import type { FinishReason } from '../providers/spec.js';
import type { ToolProgress } from '../tools/tool-progress.js';
import type { SerializedError } from './serialized-error.js';

/** How a run ended. */
export type RunStatus =
  | 'completed'
  | 'max-iterations'
  | 'budget-exceeded'
  | 'cancelled'
  | 'terminal-tool'
  | 'stop-condition'
  | 'routing-only'
  | 'error';

/** A policy outcome. */
export type PolicyDecisionValue = 'allow' | 'review' | 'deny';

/** What a guardrail checked: the user's input, the final answer, a tool call's arguments, a tool's result. */
export type GuardrailStageName = 'input' | 'output' | 'tool-arguments' | 'tool-result';

/** Why a tool call failed. */
export type ToolErrorKind = 'unknown-tool' | 'invalid-arguments' | 'execution' | 'cancelled';

/**
 * Payload of every event, keyed by its `type`. Names are the spec's callback names without `on_`,
 * with hyphens (`on_tool_start` → `tool-start`). `text-delta`, `reasoning-delta`, `approval-request`
 * and `approval-response` are stream-only events; `cost-warning`, `kg-extraction`,
 * `output-screened` and `graph-checkpoint` are agentlib additions (each has a trace step).
 */
export interface AgentEventPayloads {
  // run
  'run-start': { agentName: string; input: string; provider: string; model: string };
  'run-end': { agentName: string; status: RunStatus; content: string; iterations: number; durationMs: number; usage: AgentUsageJSON };
  error: { error: SerializedError; stage: 'llm' | 'tool' | 'cache' | 'observer' | 'run' | 'structured-output' | 'graph' | 'guardrail' };
  // LLM
  'llm-start': { iteration: number; provider: string; model: string; messageCount: number; toolCount: number };
  'llm-end': {
    iteration: number;
    provider: string;
    model: string;
    durationMs: number;
    usage: UsageStats;
    finishReason: FinishReason;
    content: string;
    toolCalls: ToolCall[];
    /** Reasoning the model gave alongside its tool selection (no extra call). */
    reasoning?: string;
    /** True when the reply came from the response cache (no LLM call was made). */
    cached?: boolean;
  };
  /**
   * The cache answered: `kind: 'response'` an LLM reply (no LLM call was made), `kind: 'tool'` a
   * cacheable tool's result (the tool did not run; `toolName` and `callId` say which call).
   */
  'cache-hit': { kind: 'response' | 'tool'; iteration: number; key: string; model: string; toolName?: string; callId?: string };
  usage: { iteration: number; usage: UsageStats; total: UsageTotals };
  'llm-retry': { provider: string; attempt: number; delayMs: number; error: SerializedError };
  'model-switch': { iteration: number; from: string; to: string };
  // tools
  'tool-start': { callId: string; toolName: string; args: Record<string, unknown> };
  'tool-end': { callId: string; toolName: string; args: Record<string, unknown>; result: string; durationMs: number; cached: boolean };
  'tool-error': { callId: string; toolName: string; args: Record<string, unknown>; error: SerializedError; kind: ToolErrorKind; durationMs: number };
  /** A streaming tool's chunk; with `progress`, a progress report (`ctx.progress`, MCP progress notifications), not part of the result. */
  'tool-chunk': { callId: string; toolName: string; chunk: string; progress?: ToolProgress };
  // iterations
  'iteration-start': { iteration: number };
  'iteration-end': { iteration: number; toolCalls: number };
  // batch
  'batch-start': { size: number; maxConcurrency: number };
  'batch-end': { size: number; succeeded: number; failed: number; durationMs: number };
  // policy and safety
  'policy-decision': { callId: string; toolName: string; args: Record<string, unknown>; decision: PolicyDecisionValue; reason: string };
  'guardrail-triggered': {
    guardrail: string;
    /** `tool-arguments` and `tool-result` checks also carry the call's callId and toolName. */
    stage: GuardrailStageName;
    action: 'block' | 'rewrite' | 'warn';
    reason: string;
    /** What matched, safe to log: typed masks (`[EMAIL]`), keywords, terms; never raw personal data. */
    matches?: string[];
    callId?: string;
    toolName?: string;
  };
  'coherence-blocked': { callId: string; toolName: string; reason: string; /** True when the check's own call failed and failClosed blocked the call. */ checkFailed?: boolean };
  'output-screened': { callId: string; toolName: string; patterns: string[]; replaced: number };
  // structure and fallback
  'structured-validate': { iteration: number; attempt: number; valid: boolean; issues: string[] };
  'provider-fallback': { from: string; to: string; error: SerializedError };
  // memory
  'memory-trim': { removed: number; remaining: number };
  'session-load': { sessionId: string; messages: number };
  'session-save': { sessionId: string; messages: number };
  'memory-summarize': { messagesSummarized: number; summaryChars: number };
  /** Entities merged by one extraction; `names` as stored. */
  'entity-extraction': { entities: number; names: string[] };
  /** Triples added by one extraction (new or confirmed). */
  'kg-extraction': { triples: number };
  // retrieval (agentlib additions: a RAG tool's search; callId and toolName of the tool call)
  'retrieval-start': { callId: string; toolName: string; query: string; mode: 'vector' | 'bm25' | 'hybrid'; topK: number };
  'retrieval-end': {
    callId: string;
    toolName: string;
    query: string;
    mode: 'vector' | 'bm25' | 'hybrid';
    /** Passages returned (after the score threshold). */
    results: number;
    /** Their citations, best first (`docs/leave.md`, `manual.pdf#page=3`). */
    sources: string[];
    durationMs: number;
    /** Tokens spent embedding the query (0 for BM25 and the local hashing embedder). */
    embeddingTokens: number;
  };
  // run control
  'budget-exceeded': { kind: 'tokens' | 'cost'; limit: number; actual: number };
  'cost-warning': { threshold: number; costUsd: number };
  cancelled: { stage: 'iteration' | 'llm' | 'tools'; iteration: number; reason?: string };
  'prompt-compressed': { beforeTokens: number; afterTokens: number; messagesCompressed: number };
  // eval
  'eval-start': { suite: string; cases: number };
  'eval-case-end': { suite: string; caseId: string; passed: boolean; score: number; durationMs: number; verdict: 'pass' | 'fail' | 'error' | 'skip' };
  'eval-end': { suite: string; passed: number; failed: number; durationMs: number };
  // graph
  'graph-start': { graph: string; entry: string };
  'graph-end': { graph: string; durationMs: number; steps: number; interrupted: boolean };
  'graph-error': { graph: string; node?: string; error: SerializedError };
  'node-start': { graph: string; node: string; step: number };
  /** `skipped`: the node failed and its ErrorPolicy SKIP let the run go on (the error it had). */
  'node-end': { graph: string; node: string; step: number; durationMs: number; output: string; skipped?: { name: string; message: string } };
  'graph-routing': { graph: string; from: string; to: string; conditional: boolean };
  'graph-interrupt': { graph: string; node: string; interruptId: string; prompt: string };
  'graph-resume': { graph: string; node: string; interruptId: string };
  'graph-checkpoint': { graph: string; node: string; checkpointId: string };
  'parallel-start': { graph: string; nodes: string[] };
  'parallel-end': { graph: string; nodes: string[]; durationMs: number };
  'stall-detected': { graph: string; node: string; stalls: number };
  'loop-detected': { graph: string; node: string; hash: string };
  /** A supervisor replans (magentic after maxStalls unproductive rounds; plan_and_execute after a failed step). `round`: agent turns so far. */
  'supervisor-replan': { supervisor: string; strategy: string; round: number; reason: string };
  // pipelines (agentlib additions: the spec's pipelines have no callbacks)
  'step-start': { pipeline: string; step: string; index: number };
  'step-end': { pipeline: string; step: string; index: number; durationMs: number; output: string };
  // stream-only
  'text-delta': { iteration: number; text: string };
  'reasoning-delta': { iteration: number; text: string };
  'approval-request': { callId: string; toolName: string; args: Record<string, unknown>; reason: string; timeoutMs: number };
  'approval-response': { callId: string; toolName: string; approved: boolean; outcome: 'approved' | 'denied' | 'timeout'; feedback?: string };
}

/** Every event type name. */
export type AgentEventType = keyof AgentEventPayloads;

/** Fields every event carries. */
export interface AgentEventBase<T extends AgentEventType = AgentEventType> {
  type: T;
  runId: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  /** Set on nested runs (graph nodes, sub-agents). */
  parentRunId?: string;
  /** On the events of a graph node's nested run (an agent node, a subgraph): the node's name. */
  node?: string;
}

/** The event of one type. */
export type AgentEventOf<T extends AgentEventType> = AgentEventBase<T> & AgentEventPayloads[T];

/** The closed union of every event a run emits. */
export type AgentEvent = { [T in AgentEventType]: AgentEventOf<T> }[AgentEventType];

/** Builds `onToolStart` from `tool-start`. */
export type KebabToPascal<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${KebabToPascal<Tail>}`
  : Capitalize<S>;

/** The observer method name for an event type. */
export type ObserverMethodName<T extends AgentEventType> = `on${KebabToPascal<T>}`;
