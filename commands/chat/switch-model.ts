import type { Agent } from '../../lib/agent/agent.js';
import { loadAgent } from '../../lib/config/load-agent.js';
import { UsageError } from '../../cli/usage-error.js';
import { planAgentLoad, resolveAgent, type AgentRequest, type ResolvedAgent } from '../run/resolve-agent.js';

/**
 * The loader behind the chat's `/model <id>`: the same agent file and options with another model.
 *
 * With `--record` the new agent keeps the chat's RecordingProvider, so its calls are appended to
 * the same cassette (loading the agent again with `--record` would start the cassette over and
 * lose what was recorded). With `--replay` it keeps the ReplayProvider, so replay continues where
 * it is (a recorded chat with a model switch replays with the same switch). The provider stays the
 * same in both cases — only the model id sent with each call changes — so this always works; a
 * recorder or replayer that is somehow missing is refused with a UsageError rather than restarting
 * the cassette.
 */
export function modelSwitcher(request: AgentRequest, resolved: Pick<ResolvedAgent, 'recorder' | 'replay'>): (model: string) => Promise<Agent> {
  return async (model) => {
    if (request.record === undefined && request.replay === undefined) return (await resolveAgent({ ...request, model })).agent;
    return sharedProviderAgent({ ...request, model }, resolved, '/model cannot switch models here');
  };
}

/**
 * Loads `request` (with --record or --replay) again on the chat's own RecordingProvider or
 * ReplayProvider, so the cassette continues rather than starting over (see modelSwitcher).
 */
export async function sharedProviderAgent(request: AgentRequest, resolved: Pick<ResolvedAgent, 'recorder' | 'replay'>, refusal = 'cannot load the agent again here'): Promise<Agent> {
  const shared = request.record !== undefined ? resolved.recorder : resolved.replay;
  if (shared === undefined) {
    const flag = request.record !== undefined ? `--record ${request.record}` : `--replay ${request.replay ?? ''}`;
    throw new UsageError(`${refusal}: the agent was loaded without the provider of ${flag}, and loading it again would start the cassette over.`);
  }
  const { record: _record, replay: _replay, ...plain } = request;
  const plan = planAgentLoad(plain);
  plan.options.provider = shared;
  const agent = await loadAgent(plan.file, plan.options);
  request.followMcpTools?.(agent);
  return agent;
}
