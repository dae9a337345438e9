import type { Agent } from '../../lib/agent/agent.js';

/** A stored session as `/sessions` lists it. */
export interface ChatSessionInfo {
  id: string;
  messageCount: number;
  updatedAt: number;
}

/** What the chat's `/sessions`, `/session <id>` and `/reset` use (`agentlib chat` provides it). */
export interface ChatSessions {
  /** The sessions of the agent's store, most recent first. */
  list(): Promise<readonly ChatSessionInfo[]>;
  /** The agent continuing session `id` (created on its first turn when new). */
  open(id: string): Promise<Agent>;
  /** A new session id (for `/reset` on a stored session). */
  newId(): string;
}

/** The text `/sessions` prints. */
export function sessionsText(sessions: readonly ChatSessionInfo[], current: string | undefined): string {
  if (sessions.length === 0) return current === undefined ? 'No saved sessions. Start one with /session <id>.' : `No saved sessions yet (this one, ${current}, is saved after its first turn).`;
  const width = Math.max(...sessions.map((s) => s.id.length));
  return [
    `Sessions (${sessions.length}):`,
    ...sessions.map((s) => `${s.id === current ? '*' : ' '} ${s.id.padEnd(width)}  ${String(s.messageCount).padStart(4)} messages  ${new Date(s.updatedAt).toISOString().replace('T', ' ').slice(0, 19)}`),
  ].join('\n');
}
