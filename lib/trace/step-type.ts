/**
 * The kind of a trace step: the spec's 27 values, as a string enum object
 * (`StepType.LLM_CALL === 'llm_call'`).
 */
export const StepType = {
  // core
  LLM_CALL: 'llm_call',
  TOOL_SELECTION: 'tool_selection',
  TOOL_EXECUTION: 'tool_execution',
  CACHE_HIT: 'cache_hit',
  ERROR: 'error',
  STRUCTURED_RETRY: 'structured_retry',
  // memory
  SESSION_LOAD: 'session_load',
  SESSION_SAVE: 'session_save',
  MEMORY_SUMMARIZE: 'memory_summarize',
  ENTITY_EXTRACTION: 'entity_extraction',
  KG_EXTRACTION: 'kg_extraction',
  // safety
  GUARDRAIL: 'guardrail',
  COHERENCE_CHECK: 'coherence_check',
  OUTPUT_SCREENING: 'output_screening',
  // run control
  BUDGET_EXCEEDED: 'budget_exceeded',
  CANCELLED: 'cancelled',
  PROMPT_COMPRESSED: 'prompt_compressed',
  // graph
  GRAPH_NODE_START: 'graph_node_start',
  GRAPH_NODE_END: 'graph_node_end',
  GRAPH_ROUTING: 'graph_routing',
  GRAPH_CHECKPOINT: 'graph_checkpoint',
  GRAPH_INTERRUPT: 'graph_interrupt',
  GRAPH_RESUME: 'graph_resume',
  GRAPH_PARALLEL_START: 'graph_parallel_start',
  GRAPH_PARALLEL_END: 'graph_parallel_end',
  GRAPH_STALL: 'graph_stall',
  GRAPH_LOOP_DETECTED: 'graph_loop_detected',
} as const;

/** One of the 27 step type strings. */
export type StepType = (typeof StepType)[keyof typeof StepType];

/** Every step type, in the spec's order. */
export const STEP_TYPES: readonly StepType[] = Object.freeze(Object.values(StepType));

const STEP_TYPE_SET: ReadonlySet<string> = new Set(STEP_TYPES);

/** True when `value` is one of the 27 step type strings. */
export function isStepType(value: unknown): value is StepType {
  return typeof value === 'string' && STEP_TYPE_SET.has(value);
}
