/** A subsystem of the spec that has not landed, and the settings that wait for it. */
export interface PendingSubsystem {
  /** What will honour the settings, as a phrase: "the memory subsystem (lib/memory/)". */
  subsystem: string;
  /** Top-level keys of an agent YAML file: the canonical group and the spec's flat names. */
  yamlKeys: readonly string[];
  /** Options of `new Agent({...})`: the group and the spec's flat names, camelCase. */
  agentOptions: readonly string[];
}

/**
 * ─── NOT SUPPORTED YET ───────────────────────────────────────────────────────────────────────
 * The one list of settings that nothing at run time honours yet. Each is refused — in an agent
 * YAML file (exit 2, at the key's `file:line:col`) and in `new Agent({...})` (a ConfigurationError)
 * — with "not supported yet", so a guardrail, a session or a memory limit is never validated and
 * then silently ignored. When a subsystem lands, it deletes its entry here in the same change that
 * makes the setting work (the YAML validators of `memory`, `session` and `guardrails` are already in
 * lib/config/placeholder-fields.ts and take over as soon as their entry is gone; `mcp` has).
 */
export const NOT_SUPPORTED_YET: readonly PendingSubsystem[] = [
  {
    subsystem: 'the memory subsystem (lib/memory/: conversation window, summaries, entity, knowledge-graph and long-term memory)',
    yamlKeys: ['memory', 'summarize', 'summarize_on_trim', 'summarize_provider', 'summarize_model', 'summarize_max_tokens', 'entity_memory', 'knowledge_graph', 'knowledge_memory'],
    agentOptions: ['memory', 'summarize', 'summarizeOnTrim', 'summarizeProvider', 'summarizeModel', 'summarizeMaxTokens', 'entityMemory', 'knowledgeGraph', 'knowledgeMemory'],
  },
  {
    subsystem: 'the sessions subsystem (lib/sessions/: persistent session stores)',
    yamlKeys: ['session', 'session_id', 'session_store'],
    agentOptions: ['session', 'sessionId', 'sessionStore'],
  },
  {
    subsystem: 'the guardrails subsystem (lib/safety/: input/output guardrails and tool-output screening)',
    yamlKeys: ['guardrails', 'screen_tool_output', 'output_screening_patterns'],
    agentOptions: ['guardrails', 'screenToolOutput', 'outputScreeningPatterns'],
  },
  {
    subsystem: 'the coherence check (lib/safety/: the intent check before tool calls)',
    yamlKeys: ['coherence', 'coherence_check', 'coherence_provider', 'coherence_model'],
    agentOptions: ['coherence', 'coherenceCheck', 'coherenceProvider', 'coherenceModel'],
  },
  {
    subsystem: 'prompt compression (lib/memory/)',
    yamlKeys: ['compress', 'compress_context', 'compress_threshold', 'compress_keep_recent'],
    agentOptions: ['compress', 'compressContext', 'compressThreshold', 'compressKeepRecent'],
  },
  {
    subsystem: 'the cache subsystem (lib/cache/: cache backends chosen by URL; in code, pass a `cache` object to new Agent())',
    yamlKeys: ['cache'],
    agentOptions: [],
  },
  {
    subsystem: 'the RAG subsystem (lib/rag/: knowledge bases and retrieval)',
    yamlKeys: ['rag', 'knowledge'],
    agentOptions: ['rag', 'knowledge'],
  },
];

/** The pending subsystem of a top-level agent YAML key, or undefined when the key is not waiting for one. */
export function pendingYamlKey(key: string): PendingSubsystem | undefined {
  return NOT_SUPPORTED_YET.find((entry) => entry.yamlKeys.includes(key));
}

/** The pending subsystem of a `new Agent()` option, or undefined when the option is not waiting for one. */
export function pendingAgentOption(option: string): PendingSubsystem | undefined {
  return NOT_SUPPORTED_YET.find((entry) => entry.agentOptions.includes(option));
}
