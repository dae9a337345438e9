import type { CommandArguments } from '../command-module.js';
import type { AgentRequest } from './resolve-agent.js';

/** A string option when given and not empty, else undefined. */
export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The AgentRequest that the commands running an agent (run, chat, serve) build from the options
 * they share: the `agent` positional, `--model`, `--provider`, `--max-iterations`, `--record` and
 * `--replay`. An option a command does not declare, or an empty one, is left out.
 */
export function agentRequestFrom(args: CommandArguments, base: Pick<AgentRequest, 'cwd' | 'env' | 'vars'>): AgentRequest {
  const request: AgentRequest = { ref: String(args.agent), ...base };
  const model = optionalString(args.model);
  const provider = optionalString(args.provider);
  const record = optionalString(args.record);
  const replay = optionalString(args.replay);
  if (model !== undefined) request.model = model;
  if (provider !== undefined) request.provider = provider;
  if (typeof args.maxIterations === 'number') request.maxIterations = args.maxIterations;
  if (record !== undefined) request.record = record;
  if (replay !== undefined) request.replay = replay;
  return request;
}
