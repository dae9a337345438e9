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
export const NOT_SUPPORTED_YET: readonly PendingSubsystem[] = [];

/** The pending subsystem of a top-level agent YAML key, or undefined when the key is not waiting for one. */
export function pendingYamlKey(key: string): PendingSubsystem | undefined {
  return NOT_SUPPORTED_YET.find((entry) => entry.yamlKeys.includes(key));
}

/** The pending subsystem of a `new Agent()` option, or undefined when the option is not waiting for one. */
export function pendingAgentOption(option: string): PendingSubsystem | undefined {
  return NOT_SUPPORTED_YET.find((entry) => entry.agentOptions.includes(option));
}
