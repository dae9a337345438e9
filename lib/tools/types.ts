import type { AgentEvent } from '../events/types.js';
import type { AgentUsage } from '../core/usage.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ToolValidationError } from '../core/errors/tool-validation-error.js';
import type { JsonSchema } from '../core/json.js';
import type { ProviderToolSpec } from '../providers/spec.js';
import type { ToolProgress } from './tool-progress.js';

export type { ToolProgress } from './tool-progress.js';

/**
 * What a tool receives besides its model-visible arguments. Never shown to the model.
 * `context` is whatever the caller passed as `run(input, { context })`.
 */
export interface ToolContext<C = unknown> {
  /** Aborted when the run is cancelled; pass it on to fetch / child processes. */
  signal: AbortSignal;
  runId: string;
  callId: string;
  toolName: string;
  /** User-provided context (database handles, the current user, …). */
  context: C;
  /**
   * Reports how far a long call is (an agent run emits it as a `tool-chunk` event with `progress`;
   * it is not part of the result). Absent where nobody listens (a tool invoked directly).
   */
  progress?: (update: ToolProgress) => void;
  /**
   * Set by the agent loop: where a run nested in this call (an agent used as a tool, see
   * `agent.asTool()`) sends its events (the caller's observers, stream and trace get them) and its
   * usage (added to the caller's). Absent when a tool is invoked outside a run.
   */
  nested?: NestedRunSink;
}

/** Receives a nested run's events and usage on behalf of the calling run. */
export interface NestedRunSink {
  /** Hands on one event of the nested run (it carries its own runId and the caller's as parentRunId). */
  emit(event: AgentEvent): void;
  /** Adds the nested run's usage (tokens and cost) to the caller's. */
  addUsage(usage: AgentUsage): void;
}

/** Behaviour switches of a tool. */
export interface ToolOptions {
  /** Screen this tool's output for prompt-injection patterns before the model sees it. Default false. */
  screenOutput?: boolean;
  /** End the run after this tool executes, without another LLM call. Default false. */
  terminal?: boolean;
  /** Always ask for approval before running, whatever the policy says. Default false. */
  requiresApproval?: boolean;
  /** Reuse the result for identical arguments within `cacheTtl`. Default false. */
  cacheable?: boolean;
  /** Seconds a cached result stays valid. Default 300. */
  cacheTtl?: number;
}

/** Accepted forms of `parameters`: a zod schema (or any Standard Schema), or a JSON Schema object. */
export type ToolParameters = StandardSchemaV1 | JsonSchema;

/** Infers the argument type of a tool from its `parameters`. */
export type InferToolArgs<P> = P extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<P> : Record<string, unknown>;

/** What `execute` may return: a value, a promise of one, or an (async) generator of chunks. */
export type ToolReturn = unknown;

/** The object passed to `tool({...})`. */
export interface ToolDefinition<P extends ToolParameters = ToolParameters, C = unknown> extends ToolOptions {
  /** Identifier (letters, digits, `_`; not starting with a digit), 1–64 characters. */
  name: string;
  /** What the tool does, for the model: 10–1024 characters. */
  description: string;
  /** Parameters; omit for a tool without arguments. */
  parameters?: P;
  /** Runs the tool. An async generator streams chunks (`tool-chunk` events); their joined text is the result. */
  execute: (args: InferToolArgs<P>, ctx: ToolContext<C>) => ToolReturn;
}

/** Result of validating a call's raw arguments. */
export type ToolArgsResult<A> = { ok: true; value: A } | { ok: false; error: ToolValidationError };

/** The outcome of executing a tool. */
export interface ToolOutput {
  /** The result as text for the model (serialised per the result rules). */
  content: string;
  /** The value `execute` returned (for generators: the array of chunks). */
  raw: unknown;
}

/** A defined, validated tool. Created by `tool()`; recognised by `isTool()`. */
export interface Tool<A = Record<string, unknown>, C = unknown> {
  readonly name: string;
  readonly description: string;
  /** Model-visible JSON Schema of the arguments (object schema; arrays always have `items`). */
  readonly parameters: JsonSchema;
  readonly screenOutput: boolean;
  readonly terminal: boolean;
  readonly requiresApproval: boolean;
  readonly cacheable: boolean;
  /** Seconds. */
  readonly cacheTtl: number;
  /**
   * Coerces (numeric/boolean strings where the schema is unambiguous) and validates raw model
   * arguments. Never throws: problems come back as a ToolValidationError (with a did-you-mean
   * suggestion for mistyped parameter names).
   */
  validateArgs(raw: unknown): Promise<ToolArgsResult<A>>;
  /**
   * Runs the tool with validated arguments. Generator chunks are passed to `onChunk` as they come.
   * Throws whatever `execute` throws (the agent wraps it as ToolExecutionError).
   */
  invoke(args: A, ctx: ToolContext<C>, onChunk?: (chunk: string) => void): Promise<ToolOutput>;
  /** The provider-facing spec (name, description, parameters). */
  toSpec(): ProviderToolSpec;
  /** A copy with some options changed (used by ToolRegistry to forward options). */
  withOptions(options: ToolOptions): Tool<A, C>;
}
