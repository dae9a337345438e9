/**
 * Multi-agent graphs (`agentlib/graph`): AgentGraph, GraphState, interrupts and resume,
 * checkpoint stores, time travel, Mermaid / JSON rendering. See docs/graph.md.
 */
export { AgentGraph, type GraphInput, type NodeTarget, type ParallelOptions, type SubgraphOptions } from './agent-graph.js';
export { ContextMode, END, ErrorPolicy, GRAPH_DEFAULTS, LAST_OUTPUT_KEY, MergePolicy } from './constants.js';
export { HUMAN_INPUT_KEY } from './execute-node.js';
export { GraphStream } from './graph-stream.js';
export { InterruptRequest, interrupt } from './interrupt.js';
export { mergeOutcomes } from './merge.js';
export { Send } from './send.js';
export type { GraphNodeError, GraphState, NodeUpdate, ReadonlyGraphState } from './state.js';
export type {
  AgentGraphOptions,
  GraphResult,
  GraphRunOptions,
  GraphRunStatus,
  Interruptible,
  NodeAgentRunOptions,
  NodeContext,
  NodeEventType,
  NodeFunction,
  NodeGenerator,
  NodeOptions,
  NodeResult,
  NodeReturn,
  PendingInterrupt,
  RetryOptions,
  Router,
  RouterResult,
} from './types.js';
export { InMemoryCheckpointStore } from './checkpoint/memory-store.js';
export { FileCheckpointStore } from './checkpoint/file-store.js';
export { SQLiteCheckpointStore, SQLITE_CHECKPOINT_MIGRATIONS, CHECKPOINT_SUBSYSTEM } from './checkpoint/sqlite-store.js';
export { PostgresCheckpointStore, POSTGRES_CHECKPOINT_MIGRATIONS } from './checkpoint/postgres-store.js';
export { openCheckpointStore } from './checkpoint/open-store.js';
export { CHECKPOINT_KIND, CHECKPOINT_VERSION, decodeCheckpoint, encodeCheckpoint } from './checkpoint/codec.js';
export type { Checkpoint, CheckpointSource, CheckpointStore, InterruptClaim, ListCheckpointsOptions, NodeProgress, PendingTarget, RunSnapshot } from './checkpoint/types.js';
export { graphToJSON, type GraphJSON, type GraphNodeJSON } from './render/to-json.js';
export { graphToMermaid } from './render/mermaid.js';
export { graphToAscii, type AsciiOptions } from './render/ascii.js';
export { graphToLayoutMermaid } from './render/layout-mermaid.js';
export { CheckpointNotFoundError } from '../core/errors/checkpoint-not-found-error.js';
export { GraphExecutionError } from '../core/errors/graph-execution-error.js';
export { InterruptError, type InterruptErrorReason } from '../core/errors/interrupt-error.js';
export { loadGraph, buildGraph, type LoadGraphOptions } from './yaml/load-graph.js';
export { loadGraphConfig, parseGraphConfig, type LoadedGraphConfig } from './yaml/parse-graph-config.js';
export { GRAPH_FIELDS, type GraphFileConfig, type GraphFileNode } from './yaml/graph-fields.js';
export { SupervisorAgent } from './supervisor/supervisor-agent.js';
export {
  FINISH,
  SUPERVISOR_DEFAULTS,
  SUPERVISOR_KEY,
  SupervisorStrategy,
  type PlanStep,
  type ProgressLedger,
  type SupervisorFinish,
  type SupervisorOptions,
  type SupervisorRecord,
  type SupervisorResult,
  type SupervisorTurn,
  type TaskLedger,
} from './supervisor/types.js';
export { buildSupervisor, parseSupervisorConfig } from './yaml/load-supervisor.js';
export { SUPERVISOR_FIELDS, type SupervisorFileConfig } from './yaml/supervisor-fields.js';
