import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { writeJson } from '../cli/output.js';
import { UsageError } from '../cli/usage-error.js';
import { SessionConflictError } from '../lib/core/errors/session-conflict-error.js';
import { SessionNotFoundError } from '../lib/core/errors/session-not-found-error.js';
import { InvalidStoreIdError } from '../lib/storage/index.js';
import type { Message } from '../lib/core/message.js';
import { closestMatch } from '../lib/core/suggest.js';
import type { SessionInfo, SessionRecord, SessionStore } from '../lib/sessions/types.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { sessionsStore } from './sessions/open-store.js';

/** The actions of `agentlib sessions`, in help order. */
export const SESSIONS_ACTIONS = ['ls', 'show', 'rm', 'branch', 'export'] as const;

type Action = (typeof SESSIONS_ACTIONS)[number];

const USAGE: Record<Action, { ids: (n: number) => boolean; usage: string }> = {
  ls: { ids: (n) => n === 0, usage: 'agentlib sessions ls [--json]' },
  show: { ids: (n) => n === 1, usage: 'agentlib sessions show <id> [--json]' },
  rm: { ids: (n) => n >= 1, usage: 'agentlib sessions rm <id..> [--json]' },
  branch: { ids: (n) => n === 2, usage: 'agentlib sessions branch <source> <new> [--json]' },
  export: { ids: (n) => n === 1, usage: 'agentlib sessions export <id> [-o file.json]' },
};

function parseAction(value: unknown): Action {
  const word = typeof value === 'string' ? value : '';
  if ((SESSIONS_ACTIONS as readonly string[]).includes(word)) return word as Action;
  if (word === 'list') return 'ls';
  if (word === 'delete') return 'rm';
  const suggestion = closestMatch(word, SESSIONS_ACTIONS);
  throw new UsageError(`unknown sessions action "${word}"; expected one of ${SESSIONS_ACTIONS.join(', ')}.${suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`}`, suggestion === undefined ? {} : { suggestion });
}

function time(ms: number | undefined): string {
  return ms === undefined ? '-' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

function listText(sessions: readonly SessionInfo[], store: SessionStore): string {
  if (sessions.length === 0) return `No sessions in namespace "${store.namespace}".\n`;
  const rows = [['id', 'messages', 'updated', 'expires'], ...sessions.map((s) => [s.id, String(s.messageCount), time(s.updatedAt), time(s.expiresAt)])];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  return `${rows.map((row) => row.map((cell, col) => (col === 1 ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!))).join('  ').trimEnd()).join('\n')}\n`;
}

function messageLine(message: Message): string {
  const calls = (message.toolCalls ?? []).map((c) => `\n    → ${c.toolName}(${JSON.stringify(c.parameters)})`).join('');
  const who = message.role === 'tool' ? `tool ${message.toolName ?? ''}${message.isError === true ? ' (error)' : ''}` : message.role;
  return `${who}: ${message.content}${calls}`;
}

function showText(record: SessionRecord): string {
  const head = `session ${record.id} · ${record.messages.length} messages · revision ${record.revision} · updated ${time(record.updatedAt)}${record.expiresAt === undefined ? '' : ` · expires ${time(record.expiresAt)}`}`;
  const summary = record.summary === '' ? [] : [`summary: ${record.summary}`];
  return `${[head, ...summary, '', ...record.messages.map(messageLine)].join('\n')}\n`;
}

async function loaded(store: SessionStore, id: string): Promise<SessionRecord> {
  const record = await store.load(id);
  if (record === undefined) throw new SessionNotFoundError({ sessionId: id });
  return record;
}

/**
 * `agentlib sessions <action> [ids..]`: ls, show, rm, branch and export of the conversations a
 * session store keeps (`--store` URL, or the `session:` of `--agent <file>`). An unknown session
 * id is a usage error (exit 2).
 */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const action = parseAction(args.action);
  const ids = (Array.isArray(args.ids) ? (args.ids as unknown[]) : []).map(String);
  if (!USAGE[action].ids(ids.length)) throw new UsageError(`sessions ${action}: wrong number of session ids (${ids.length}): ${USAGE[action].usage}`);
  const json = args.json === true;
  const cwd = io.cwd ?? process.cwd();
  const store = await sessionsStore(args, cwd, io.env);
  try {
    switch (action) {
      case 'ls': {
        const sessions = await store.list();
        if (json) writeJson(io, { namespace: store.namespace, sessions });
        else io.stdout.write(listText(sessions, store));
        return 0;
      }
      case 'show': {
        const record = await loaded(store, ids[0]!);
        if (json) writeJson(io, { namespace: store.namespace, session: record });
        else io.stdout.write(showText(record));
        return 0;
      }
      case 'rm': {
        for (const id of ids) await loaded(store, id); // every id must exist before any is deleted
        for (const id of ids) await store.delete(id);
        if (json) writeJson(io, { namespace: store.namespace, deleted: ids });
        else io.stdout.write(`deleted ${ids.join(', ')}\n`);
        return 0;
      }
      case 'branch': {
        const record = await store.branch(ids[0]!, ids[1]!);
        if (json) writeJson(io, { namespace: store.namespace, session: record });
        else io.stdout.write(`branched ${ids[0]!} → ${record.id} (${record.messages.length} messages)\n`);
        return 0;
      }
      case 'export': {
        const record = await loaded(store, ids[0]!);
        const output = typeof args.output === 'string' && args.output !== '' ? args.output : undefined;
        const document = `${JSON.stringify({ version: 1, namespace: store.namespace, session: record }, null, 2)}\n`;
        if (output === undefined) io.stdout.write(document);
        else {
          await writeFile(resolve(cwd, output), document);
          io.stderr.write(`exported ${record.id} (${record.messages.length} messages) to ${output}\n`);
        }
        return 0;
      }
    }
  } catch (error) {
    // A taken branch target or an id the store refuses is the command line's problem (exit 2).
    if (SessionConflictError.isInstance(error) || InvalidStoreIdError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}
