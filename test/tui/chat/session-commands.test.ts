import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { MemorySessionStore } from '../../../lib/sessions/memory-session-store.js';
import { EMPTY_USAGE } from '../../../tui/chat/chat-state.js';
import type { ChatSessions } from '../../../tui/chat/chat-sessions.js';
import { runSlashCommand, runsWhileBusy, type SlashContext } from '../../../tui/chat/slash-commands.js';
import { newChatSessionId } from '../../../commands/chat/chat-sessions.js';

/** A chat's slash-command context on real agents over one in-memory session store. */
function chat(store: MemorySessionStore, first: Agent): { ctx: SlashContext; printed: string[]; agent: () => Agent; resets: () => number } {
  const provider = new ScriptedProvider({ respond: (_r, i) => `answer ${i}` });
  let current = first;
  let resets = 0;
  let ids = 0;
  const printed: string[] = [];
  const sessions: ChatSessions = {
    list: () => store.list(),
    open: (id) => Promise.resolve(new Agent({ provider, session: { store, id } })),
    newId: () => `chat-new-${++ids}`,
  };
  const ctx: SlashContext = {
    get agent() {
      return current;
    },
    usage: EMPTY_USAGE,
    contextWindow: undefined,
    lastResult: undefined,
    busy: undefined,
    cwd: '.',
    print: (text) => void printed.push(text),
    toggleTrace: () => undefined,
    reset: () => void resets++,
    exit: () => undefined,
    switchAgent: async (load) => (current = await load()),
    sessions,
  };
  return { ctx, printed, agent: () => current, resets: () => resets };
}

test('/sessions lists, /session <id> switches and continues, /reset starts a new session', async () => {
  const store = new MemorySessionStore();
  const provider = new ScriptedProvider({ respond: () => 'hello' });
  const first = new Agent({ provider, session: { store, id: 'alice' } });
  await first.run('hi, I am Alice');
  await store.save('bob', { messages: [{ role: 'user', content: 'hi, I am Bob' }, { role: 'assistant', content: 'hello Bob' }] });
  const { ctx, printed, agent, resets } = chat(store, first);

  await runSlashCommand({ name: 'sessions', args: '' }, ctx);
  assert.match(printed.at(-1)!, /^Sessions \(2\):\n/);
  assert.match(printed.at(-1)!, /\* alice +2 messages/);
  assert.match(printed.at(-1)!, /\n {2}bob +2 messages/);

  await runSlashCommand({ name: 'session', args: 'bob' }, ctx);
  assert.equal(agent().session?.id, 'bob');
  assert.match(printed.at(-1)!, /session bob: 2 messages; the conversation continues/);
  await agent().run('what is my name?');
  assert.deepEqual((await store.load('bob'))!.messages.map((m) => m.content).slice(0, 3), ['hi, I am Bob', 'hello Bob', 'what is my name?']);

  await runSlashCommand({ name: 'reset', args: '' }, ctx);
  assert.equal(agent().session?.id, 'chat-new-1');
  assert.equal(resets(), 1);
  assert.match(printed.at(-1)!, /new session chat-new-1/);
  assert.equal((await store.load('bob'))!.messages.length, 4, 'the old session stays saved');

  await runSlashCommand({ name: 'session', args: '../x' }, ctx);
  assert.match(printed.at(-1)!, /\/session failed: invalid session id/);
  assert.equal(agent().session?.id, 'chat-new-1', 'a refused id leaves the chat on its session');
  assert.equal(runsWhileBusy({ name: 'session', args: 'x' }), false);
  assert.equal(runsWhileBusy({ name: 'sessions', args: '' }), true);
});

test('new chat session ids are valid store ids', () => {
  assert.equal(newChatSessionId(new Date('2026-11-26T14:30:05Z')), 'chat-20261126-143005');
});
