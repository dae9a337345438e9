import { UsageError } from '../../cli/usage-error.js';
import type { CommandArguments } from '../command-module.js';
import type { AgentRequest } from './resolve-agent.js';

/** A string option when given and not empty, else undefined. */
export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `--cache [url]`: the URL, or the embedded SQLite default (`sqlite://`) when given without one; `--no-cache`: false (ignore the file's `cache:`). */
export function cacheUrl(value: unknown): string | false {
  if (value === false) return false;
  if (value === '' || value === true) return 'sqlite://';
  if (typeof value === 'string') {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
    if (scheme !== undefined && ['memory', 'sqlite', 'redis', 'rediss'].includes(scheme)) return value;
    throw new UsageError(`--cache takes a store URL: memory://, sqlite://[file], redis://host:port or rediss://; got ${JSON.stringify(value)}`);
  }
  throw new UsageError('--cache takes a store URL (memory://, sqlite://[file], redis://host:port) or nothing for .agentlib/agentlib.db; --no-cache runs without the file\'s cache');
}

/** The flag that sets the provider's idle timeouts: `--timeout` on run and chat, `--provider-timeout` on serve. */
export type ProviderTimeoutFlag = '--timeout' | '--provider-timeout';

/**
 * Milliseconds from a flag given in seconds (`--timeout 1.5` → 1500; 0 turns the limits off), or
 * undefined when not given. Anything but a number ≥ 0 is a UsageError.
 */
export function providerTimeoutMs(value: unknown, flag: ProviderTimeoutFlag): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new UsageError(`${flag} takes a number of seconds ≥ 0 (got ${JSON.stringify(value)}); 0 turns the provider's idle timeouts off.`);
  }
  return Math.round(value * 1000);
}

/**
 * The AgentRequest that the commands running an agent (run, chat, serve) build from the options
 * they share: the `agent` positional, `--model`, `--provider`, `--max-iterations`, `--record` and
 * `--replay`, and the provider idle timeout under `timeoutFlag` (seconds). An option a command does
 * not declare, or an empty one, is left out.
 */
export function agentRequestFrom(args: CommandArguments, base: Pick<AgentRequest, 'cwd' | 'env' | 'vars'>, timeoutFlag?: ProviderTimeoutFlag): AgentRequest {
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
  if (args.cache !== undefined) request.cache = cacheUrl(args.cache);
  if (timeoutFlag !== undefined) {
    const ms = providerTimeoutMs(timeoutFlag === '--timeout' ? args.timeout : args.providerTimeout, timeoutFlag);
    if (ms !== undefined) request.providerTimeout = { ms, flag: timeoutFlag };
  }
  return request;
}
