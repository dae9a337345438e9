import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent } from '../agent/agent.js';
import { prepareResponseFormat } from '../agent/structured-output.js';
import type { ResponseFormat } from '../agent/types.js';
import type { JsonSchema } from '../core/json.js';
import { findPackageRoot } from '../config/package-root.js';

/** A tool as `/health` and `/schema` describe it. */
export interface ToolInfo {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** True when every call waits for approval (a request's `approve` list must match it). */
  requires_approval: boolean;
}

/** What the server says about its agent (computed once, at start). */
export interface AgentInfo {
  name: string;
  provider: string;
  model: string;
  tools: ToolInfo[];
  /** The JSON Schema of structured output, when the agent is configured with one. */
  outputSchema: JsonSchema | undefined;
  version: string;
}

/** agentlib's version from its package.json. */
export function agentlibVersion(): string {
  const root = findPackageRoot(import.meta.url);
  if (root === undefined) return '0.0.0-unknown';
  try {
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : '0.0.0-unknown';
  } catch {
    return '0.0.0-unknown';
  }
}

/** Describes `agent` (a prototype built once; it never runs). */
export function describeAgent(agent: Agent, responseFormat: ResponseFormat | undefined, version: string): AgentInfo {
  return {
    name: agent.name,
    provider: agent.providerName,
    model: agent.model,
    tools: agent.tools.map((tool) => ({ ...tool.toSpec(), requires_approval: tool.requiresApproval })),
    outputSchema: responseFormat === undefined ? undefined : prepareResponseFormat(responseFormat).spec.schema,
    version,
  };
}
