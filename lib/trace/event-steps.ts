import type { SerializedError } from '../events/serialized-error.js';
import type { AgentEvent } from '../events/types.js';
import type { StepType } from './step-type.js';
import type { StepStatus } from './trace-step.js';

/** The fields of a step built from one event (the recorder adds id, run, time and links). */
export interface EventStepFields {
  type: StepType;
  name?: string | undefined;
  input?: string | undefined;
  output?: string | undefined;
  status?: StepStatus;
  error?: SerializedError | undefined;
  metadata?: Record<string, unknown>;
  /** The tool call the step is about (links it under that call's tool_selection step). */
  callId?: string;
}

/**
 * The step an event produces on its own (an instant marker), or undefined when the event produces
 * none or needs the recorder's state (LLM and tool pairing, graph nodes, run fields).
 */
export function eventStep(event: AgentEvent): EventStepFields | undefined {
  switch (event.type) {
    case 'error':
      return { type: 'error', name: event.stage, status: 'error', error: event.error, output: errorText(event.error), metadata: { stage: event.stage } };
    case 'graph-error':
      return { type: 'error', name: event.node ?? event.graph, status: 'error', error: event.error, output: errorText(event.error), metadata: { stage: 'graph', graph: event.graph, ...(event.node === undefined ? {} : { node: event.node }) } };
    case 'structured-validate':
      if (event.valid) return undefined;
      return { type: 'structured_retry', name: 'structured_output', output: event.issues.join('; '), metadata: { iteration: event.iteration, attempt: event.attempt, issues: event.issues } };
    case 'budget-exceeded':
      return { type: 'budget_exceeded', name: event.kind, output: `${event.kind} budget reached: ${event.actual} used of ${event.limit}`, metadata: { kind: event.kind, limit: event.limit, actual: event.actual } };
    case 'cancelled':
      return { type: 'cancelled', name: event.stage, output: event.reason, metadata: { stage: event.stage, iteration: event.iteration } };
    case 'prompt-compressed':
      return { type: 'prompt_compressed', input: `${event.beforeTokens} tokens`, output: `${event.afterTokens} tokens (${event.messagesCompressed} messages compressed)`, metadata: { beforeTokens: event.beforeTokens, afterTokens: event.afterTokens, messagesCompressed: event.messagesCompressed } };
    case 'session-load':
    case 'session-save':
      return { type: event.type === 'session-load' ? 'session_load' : 'session_save', name: event.sessionId, output: `${event.messages} messages`, metadata: { sessionId: event.sessionId, messages: event.messages } };
    case 'memory-summarize':
      return { type: 'memory_summarize', input: `${event.messagesSummarized} messages`, output: `${event.summaryChars} chars`, metadata: { messagesSummarized: event.messagesSummarized, summaryChars: event.summaryChars } };
    case 'entity-extraction':
      return { type: 'entity_extraction', output: `${event.entities} entities`, metadata: { entities: event.entities } };
    case 'kg-extraction':
      return { type: 'kg_extraction', output: `${event.triples} triples`, metadata: { triples: event.triples } };
    case 'guardrail-triggered':
      return {
        type: 'guardrail',
        name: event.guardrail,
        input: event.stage,
        output: `${event.action}: ${event.reason}`,
        ...(event.callId === undefined ? {} : { callId: event.callId }),
        metadata: {
          stage: event.stage,
          action: event.action,
          reason: event.reason,
          ...(event.matches === undefined ? {} : { matches: event.matches }),
          ...(event.toolName === undefined ? {} : { toolName: event.toolName }),
        },
      };
    case 'coherence-blocked':
      return { type: 'coherence_check', name: event.toolName, output: `blocked: ${event.reason}`, callId: event.callId, metadata: { callId: event.callId, blocked: true, ...(event.checkFailed === true ? { checkFailed: true } : {}) } };
    case 'output-screened':
      return { type: 'output_screening', name: event.toolName, output: `${event.replaced} replaced (${event.patterns.join(', ')})`, callId: event.callId, metadata: { callId: event.callId, patterns: event.patterns, replaced: event.replaced } };
    case 'graph-routing':
      return { type: 'graph_routing', name: `${event.from} -> ${event.to}`, metadata: { graph: event.graph, from: event.from, to: event.to, conditional: event.conditional } };
    case 'graph-checkpoint':
      return { type: 'graph_checkpoint', name: event.node, output: event.checkpointId, metadata: { graph: event.graph, checkpointId: event.checkpointId } };
    case 'graph-interrupt':
      return { type: 'graph_interrupt', name: event.node, output: event.prompt, metadata: { graph: event.graph, interruptId: event.interruptId } };
    case 'graph-resume':
      return { type: 'graph_resume', name: event.node, metadata: { graph: event.graph, interruptId: event.interruptId } };
    case 'stall-detected':
      return { type: 'graph_stall', name: event.node, output: `${event.stalls} stalls`, metadata: { graph: event.graph, stalls: event.stalls } };
    case 'loop-detected':
      return { type: 'graph_loop_detected', name: event.node, status: 'error', error: { name: 'GraphLoopDetected', message: `node "${event.node}" repeated state ${event.hash}` }, metadata: { graph: event.graph, hash: event.hash } };
    case 'supervisor-replan':
      // No spec StepType for it (docs/decisions/0024): a routing step marked by metadata.event.
      return { type: 'graph_routing', name: `${event.supervisor} replan`, output: event.reason, metadata: { event: 'supervisor-replan', graph: event.supervisor, strategy: event.strategy, round: event.round, reason: event.reason } };
    default:
      return undefined;
  }
}

function errorText(error: SerializedError): string {
  return `${error.name}: ${error.message}`;
}
