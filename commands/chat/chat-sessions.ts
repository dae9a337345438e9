import type { Agent } from '../../lib/agent/agent.js';
import { loadAgentConfig } from '../../lib/config/parse-agent-config.js';
import { openConfiguredSessionStore } from '../../lib/config/session-settings.js';
import type { SessionStore } from '../../lib/sessions/types.js';
import type { ChatSessions } from '../../tui/chat/chat-sessions.js';
import type { AgentRequest } from '../run/resolve-agent.js';

/** A new session id: `chat-` and the UTC time to the second (`chat-20261126-143005`). */
export function newChatSessionId(now: Date = new Date()): string {
  return `chat-${now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`;
}

/**
 * The chat's sessions: the store of the agent file's `session:` (the default SQLite file when it
 * has none), and agents loaded on a session. `request.sessionId` follows the current session, so
 * `/model` keeps it. `load` builds the agent from a request (the chat's own loader).
 */
export function chatSessions(request: AgentRequest, file: string, load: (request: AgentRequest) => Promise<Agent>): ChatSessions {
  let store: Promise<SessionStore> | undefined;
  const storeOf = (): Promise<SessionStore> =>
    (store ??= loadAgentConfig(file, { vars: request.vars, env: request.env }).then((config) => openConfiguredSessionStore(config.session ?? {}, config.name ?? 'agent', file)));
  return {
    list: async () => (await storeOf()).list(),
    open: async (id) => {
      const agent = await load({ ...request, sessionId: id });
      request.sessionId = id;
      return agent;
    },
    newId: () => newChatSessionId(),
  };
}
