import { REASONING_STRATEGIES, type ReasoningStrategyName } from '../agent/strategies.js';
import { CACHE_FIELDS, readCache } from './cache-node.js';
import { BUDGET_FIELDS, RETRY_FIELDS, STRUCTURED_FIELDS, TOOL_CONFIG_FIELDS, TRACE_FIELDS } from './group-fields.js';
import { ENTITY_MEMORY_FIELDS, KNOWLEDGE_GRAPH_FIELDS, KNOWLEDGE_MEMORY_FIELDS, memoryComponent } from './long-term-memory-fields.js';
import { GUARDRAILS_FIELDS, MCP_FIELDS, MEMORY_FIELDS, SUBSYSTEM_READERS, SESSION_FIELDS } from './subsystem-fields.js';
import { POLICY_FIELDS, readPolicy } from './policy-node.js';
import { PROVIDER_FIELDS, readProvider } from './provider-node.js';
import { AUDIT_FIELDS, COHERENCE_FIELDS, readCoherence, SCREENING_FIELDS } from './safety-fields.js';
import { list } from './read-collections.js';
import { group } from './read-mapping.js';
import { bool, num, oneOf, str, type FieldTable } from './readers.js';
import { RETRIEVAL_FIELDS, retrievalKey } from './retrieval-node.js';
import { readToolSource } from './tool-sources.js';

/** `compress:` (prompt compression of lib/memory/). */
const COMPRESS_FIELDS: FieldTable = {
  threshold: { read: num({ min: 0.01, max: 1 }), type: 'number 0.01–1', default: '0.75', description: 'Fill of the context window at which compression starts.' },
  keep_recent: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '3', description: 'Latest turns sent verbatim.' },
  context_window: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: "the model registry's", description: 'Context window of the model, in tokens.' },
  max_chars: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', default: '300', description: 'Characters kept of each older message.' },
};

const STRATEGIES = Object.keys(REASONING_STRATEGIES) as ReasoningStrategyName[];

/** Every top-level key of an agent YAML file. */
export const AGENT_FIELDS: FieldTable = {
  name: { read: str({ nonEmpty: true }), type: 'string', default: 'agent', description: 'Agent name (events, traces, the server).' },
  description: { read: str(), type: 'string', description: 'What the agent is for, for people reading the file (not sent to the model).' },
  provider: { read: readProvider, type: 'name | mapping | list', description: 'The LLM provider: a name, an object, or a fallback chain.', fields: PROVIDER_FIELDS },
  model: { read: str({ nonEmpty: true }), type: 'string', default: "the provider's default", description: 'Model id.' },
  system_prompt: { read: str(), type: 'string', description: 'Replaces the built-in system prompt.' },
  temperature: { read: num({ min: 0, max: 2 }), type: 'number 0–2', default: '0', description: 'Sampling temperature.' },
  max_tokens: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '1000', description: 'Output token limit per LLM call.' },
  max_iterations: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '6', description: 'Loop cap (LLM calls per run).' },
  reasoning_strategy: { read: oneOf(STRATEGIES), type: STRATEGIES.join(' | '), description: 'Reasoning instructions added to the system prompt.' },
  routing_only: { read: bool(), type: 'boolean', default: 'false', description: 'Return the tool selection without executing it.' },
  verbose: { read: bool(), type: 'boolean', default: 'false', description: 'Print cache hits and tool calls to stderr.' },
  enable_analytics: { read: bool(), type: 'boolean', default: 'false', description: 'Keep per-run tool analytics.' },
  tools: { read: list(readToolSource), type: 'list of references', default: '[]', description: 'Tool modules: `./tools.ts#name`, `./tools.ts`, `./tools/`, `package`, `package#name`.' },
  tool_config: { read: group(TOOL_CONFIG_FIELDS, { moved: { policy: 'policy' } }), type: 'mapping', description: 'How tools run.', fields: TOOL_CONFIG_FIELDS },
  policy: { read: readPolicy, type: 'mapping | path', description: 'Tool policy, inline or a policy YAML file.', fields: POLICY_FIELDS },
  retry: { read: group(RETRY_FIELDS), type: 'mapping', description: 'Provider call retries.', fields: RETRY_FIELDS },
  budget: { read: group(BUDGET_FIELDS), type: 'mapping', description: 'Per-run limits.', fields: BUDGET_FIELDS },
  trace: { read: group(TRACE_FIELDS), type: 'mapping', description: 'Trace shaping.', fields: TRACE_FIELDS },
  structured: { read: group(STRUCTURED_FIELDS), type: 'mapping', description: 'Structured-output repair.', fields: STRUCTURED_FIELDS },
  cache: { read: readCache, type: 'URL | true | mapping', description: 'Cache of LLM replies and cacheable tool results (see docs/caching.md).', fields: CACHE_FIELDS },
  memory: { read: SUBSYSTEM_READERS.memory, type: 'mapping', description: 'Conversation memory.', fields: MEMORY_FIELDS },
  session: { read: SUBSYSTEM_READERS.session, type: 'mapping', description: 'Persistent sessions.', fields: SESSION_FIELDS },
  entity_memory: { read: memoryComponent(ENTITY_MEMORY_FIELDS), type: 'true | mapping', description: 'Entities of the conversation, extracted after each run ("Known Entities").', fields: ENTITY_MEMORY_FIELDS },
  knowledge_graph: { read: memoryComponent(KNOWLEDGE_GRAPH_FIELDS), type: 'true | mapping', description: 'Relationships as triples, extracted after each run ("Known Relationships").', fields: KNOWLEDGE_GRAPH_FIELDS },
  knowledge_memory: { read: memoryComponent(KNOWLEDGE_MEMORY_FIELDS), type: 'true | mapping', description: 'Long-term memory: the remember tool, MEMORY.md and daily logs.', fields: KNOWLEDGE_MEMORY_FIELDS },
  compress: { read: group(COMPRESS_FIELDS), type: 'mapping', description: 'Prompt compression near the context window (per call; never the memory).', fields: COMPRESS_FIELDS },
  guardrails: { read: SUBSYSTEM_READERS.guardrails, type: 'mapping', description: 'Guardrails on the input, the answer, tool arguments and tool results.', fields: GUARDRAILS_FIELDS },
  screening: { read: group(SCREENING_FIELDS), type: 'mapping', description: 'Tool-output screening for prompt injection.', fields: SCREENING_FIELDS },
  coherence: { read: readCoherence, type: 'mapping', description: 'The intent check before each tool call (one extra LLM call).', fields: COHERENCE_FIELDS },
  audit: { read: group(AUDIT_FIELDS), type: 'mapping', description: 'JSONL audit log of runs, tool calls and policy decisions.', fields: AUDIT_FIELDS },
  mcp: { read: SUBSYSTEM_READERS.mcp, type: 'mapping', description: 'MCP servers.', fields: MCP_FIELDS },
  retrieval: { read: retrievalKey('retrieval'), type: 'URL | mapping', description: 'An index built with `agentlib rag index`: the agent gets a search tool over it that cites sources (see docs/rag.md).', fields: RETRIEVAL_FIELDS },
  rag: { read: retrievalKey('rag'), camel: 'retrieval', type: 'URL | mapping', description: 'The spec\'s name of `retrieval:`.', fields: RETRIEVAL_FIELDS },
  knowledge: { read: retrievalKey('knowledge'), camel: 'retrieval', type: 'URL | mapping', description: 'Another name of `retrieval:`.', fields: RETRIEVAL_FIELDS },
};

/** The spec's flat AgentConfig names, and where they live in the YAML. */
export const MOVED_KEYS: Readonly<Record<string, string>> = {
  max_retries: 'retry.max_retries',
  max_cost_usd: 'budget.max_cost_usd',
  max_total_tokens: 'budget.max_total_tokens',
  cost_warning_threshold: 'budget.cost_warning_threshold',
  parallel_tool_execution: 'tool_config.parallel',
  approval_timeout: 'tool_config.approval_timeout',
  tool_policy: 'policy',
  trace_metadata: 'trace.metadata',
  trace_tool_result_chars: 'trace.tool_result_chars',
  parent_run_id: 'trace.parent_run_id',
  session_id: 'session.id',
  session_store: 'session.store',
  summarize_on_trim: 'memory.summarize_on_trim',
  compress_context: 'compress',
  compress_threshold: 'compress.threshold',
  compress_keep_recent: 'compress.keep_recent',
  summarize_provider: 'memory.summarize_provider',
  summarize_model: 'memory.summarize_model',
  summarize_max_tokens: 'memory.summarize_max_tokens',
  screen_tool_output: 'screening.all_tools',
  output_screening_patterns: 'screening.patterns',
  coherence_check: 'coherence.enabled',
  coherence_provider: 'coherence.provider',
  coherence_model: 'coherence.model',
};
