import { resolve } from 'node:path';
import type { Agent } from '../../lib/agent/agent.js';
import { closestMatch } from '../../lib/core/suggest.js';
import { checkStoreId } from '../../lib/storage/store-id.js';
import type { AgentResult } from '../../lib/agent/result.js';
import type { Tool } from '../../lib/tools/types.js';
import type { ChatBusy } from './chat-busy-error.js';
import { sessionsText, type ChatSessions } from './chat-sessions.js';
import { contextFillText, cut, formatCost, formatTokens } from './chat-format.js';
import type { ChatUsage } from './chat-state.js';

/** A parsed `/name args` line. */
export interface SlashCommand {
  name: string;
  args: string;
}

/** The chat's slash commands, for /help and completion of typos. */
export const SLASH_COMMANDS: readonly { name: string; usage: string; description: string }[] = [
  { name: 'help', usage: '/help', description: 'show commands and keys' },
  { name: 'trace', usage: '/trace', description: 'show or hide the live trace of the current run' },
  { name: 'model', usage: '/model <id>', description: 'switch the model (the conversation continues)' },
  { name: 'cost', usage: '/cost', description: 'tokens and cost of this session' },
  { name: 'reset', usage: '/reset', description: 'start a new conversation (a new session when sessions are on)' },
  { name: 'sessions', usage: '/sessions', description: 'list saved sessions' },
  { name: 'session', usage: '/session <id>', description: 'switch to a saved session (or start one with that id)' },
  { name: 'save', usage: '/save <file>', description: "write the last run's trace as JSONL" },
  { name: 'tools', usage: '/tools', description: "list the agent's tools" },
  { name: 'exit', usage: '/exit', description: 'quit (also: Ctrl+C twice)' },
];

/**
 * Commands that wait while a turn runs or a model loads: they change the conversation or save
 * the last finished run. Refused then (the line stays in the input); every other command — /help,
 * /trace, /cost, /tools, /exit — runs at once.
 */
export const WAIT_WHILE_BUSY: ReadonlySet<string> = new Set(['model', 'reset', 'save', 'session']);

/** Whether `command` can run while the chat is busy (a turn runs, a model loads). */
export function runsWhileBusy(command: SlashCommand): boolean {
  return !WAIT_WHILE_BUSY.has(command.name);
}

/** The short notice for a line refused while busy (the line stays in the input). */
export function busyNotice(busy: ChatBusy, command?: SlashCommand): string {
  const what = command === undefined ? 'press Enter again' : `/${command.name} can run`;
  return busy === 'running' ? `a turn is running: ${what} when it has finished (esc cancels it)` : `the model is loading: ${what} when it has loaded`;
}

/** `/name rest` → `{ name, args }`; undefined for ordinary input (`//text` sends `/text`). */
export function parseSlashCommand(line: string): SlashCommand | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('/') || trimmed.startsWith('//')) return undefined;
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(trimmed);
  return { name: (match?.[1] ?? '').toLowerCase(), args: (match?.[2] ?? '').trim() };
}

/** The text /help prints. */
export function helpText(): string {
  const width = Math.max(...SLASH_COMMANDS.map((c) => c.usage.length));
  return [
    'Commands:',
    ...SLASH_COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.description}`),
    'While a turn runs, /help, /trace, /cost, /tools, /sessions and /exit work; prompts, /model, /reset, /session and /save wait (the line stays in the input).',
    'Keys:',
    '  Enter send · ↑/↓ input history · Esc or Ctrl+C cancel a running turn · Ctrl+C twice quit',
    '  Ctrl+O show the last cut tool output in full',
    '  Approvals: 1/y allow once · 2/a allow for this session · 3/n/Esc deny · 4/f deny with feedback',
    '  Start a message with // to send a leading slash.',
  ].join('\n');
}

/** The text /tools prints. */
export function toolsText(tools: readonly Tool[]): string {
  if (tools.length === 0) return 'This agent has no tools.';
  const width = Math.max(...tools.map((t) => t.name.length));
  return [`Tools (${tools.length}):`, ...tools.map((t) => `  ${t.name.padEnd(width)}  ${cut(t.description.replace(/\s+/g, ' '), 90)}${t.requiresApproval ? ' [approval]' : ''}`)].join('\n');
}

/** The text /cost prints. */
export function costText(usage: ChatUsage, contextWindow: number | undefined): string {
  const fill = contextFillText(usage.lastPromptTokens, contextWindow);
  return [
    `Session: ${formatTokens(usage.totalTokens)} tokens (${usage.promptTokens} prompt + ${usage.completionTokens} completion) in ${usage.llmCalls} LLM call${usage.llmCalls === 1 ? '' : 's'}, ${formatCost(usage.costUsd)}`,
    `Context: ${fill === undefined ? `last prompt ${usage.lastPromptTokens} tokens (context window unknown)` : `${fill} (${usage.lastPromptTokens} of ${contextWindow} tokens)`}`,
  ].join('\n');
}

/** What a slash command may do to the chat. */
export interface SlashContext {
  agent: Agent;
  usage: ChatUsage;
  contextWindow: number | undefined;
  lastResult: AgentResult | undefined;
  /** What the chat is busy with (a turn, a model switch), read when the command runs. */
  busy: ChatBusy | undefined;
  cwd: string;
  print: (text: string, tone?: 'info' | 'warn' | 'error') => void;
  toggleTrace: () => void;
  reset: () => void;
  exit: (code: number) => void;
  /** Builds the agent with another model; absent: /model is not available. */
  switchModel?: ((model: string) => Promise<Agent>) | undefined;
  /** Loads an agent and switches to it (no turn starts meanwhile; see useChatSession). */
  switchAgent: (load: () => Promise<Agent>) => Promise<Agent>;
  /** Stored sessions; absent: /sessions and /session are not available. */
  sessions?: ChatSessions | undefined;
}

/** Runs a slash command. Never throws: problems are printed. */
export async function runSlashCommand(command: SlashCommand, ctx: SlashContext): Promise<void> {
  try {
    switch (command.name) {
      case 'help':
      case '?':
        ctx.print(helpText());
        return;
      case 'trace':
        ctx.toggleTrace();
        return;
      case 'tools':
        ctx.print(toolsText(ctx.agent.tools));
        return;
      case 'cost':
        ctx.print(costText(ctx.usage, ctx.contextWindow));
        return;
      case 'reset':
        return await reset(ctx);
      case 'sessions':
        if (ctx.sessions === undefined) return ctx.print('Sessions are not available here.', 'warn');
        ctx.print(sessionsText(await ctx.sessions.list(), ctx.agent.session?.id));
        return;
      case 'session':
        return await switchSession(command.args, ctx);
      case 'exit':
      case 'quit':
        ctx.exit(0);
        return;
      case 'model':
        return await switchModel(command.args, ctx);
      case 'save':
        return await save(command.args, ctx);
      default: {
        const close = command.name === '' ? undefined : closestMatch(command.name, SLASH_COMMANDS.map((c) => c.name));
        ctx.print(`Unknown command /${command.name}.${close === undefined ? '' : ` Did you mean /${close}?`} Type /help for the list.`, 'warn');
      }
    }
  } catch (error) {
    ctx.print(`/${command.name} failed: ${error instanceof Error ? error.message : String(error)}`, 'error');
  }
}

async function reset(ctx: SlashContext): Promise<void> {
  if (ctx.busy !== undefined) return ctx.print(busyNotice(ctx.busy, { name: 'reset', args: '' }), 'warn');
  const { sessions } = ctx;
  if (sessions === undefined || ctx.agent.session === undefined) {
    ctx.reset();
    ctx.print('— conversation reset —');
    return;
  }
  // On a stored session, /reset starts a new one; the old one stays saved (/session <id> returns to it).
  const id = sessions.newId();
  await ctx.switchAgent(() => sessions.open(id));
  ctx.reset();
  ctx.print(`— conversation reset: new session ${id} —`);
}

async function switchSession(id: string, ctx: SlashContext): Promise<void> {
  const { sessions } = ctx;
  if (sessions === undefined) return ctx.print('Sessions are not available here.', 'warn');
  if (id === '') return ctx.print(ctx.agent.session === undefined ? 'No session: this conversation is not saved. Use /session <id> to save it under <id>.' : `Session: ${ctx.agent.session.id}. Use /session <id> to switch.`);
  if (ctx.busy !== undefined) return ctx.print(busyNotice(ctx.busy, { name: 'session', args: id }), 'warn');
  checkStoreId(id, 'session id'); // before switching: a refused id leaves the chat where it was
  const agent = await ctx.switchAgent(() => sessions.open(id));
  const stored = await agent.session?.store.load(id);
  ctx.print(stored === undefined ? `— new session ${id}: saved after each turn —` : `— session ${id}: ${stored.messages.length} messages; the conversation continues —`);
}

async function switchModel(model: string, ctx: SlashContext): Promise<void> {
  if (model === '') return ctx.print(`Model: ${ctx.agent.providerName}/${ctx.agent.model}. Use /model <id> to switch.`);
  if (ctx.busy !== undefined) return ctx.print(busyNotice(ctx.busy, { name: 'model', args: model }), 'warn');
  const load = ctx.switchModel;
  if (load === undefined) return ctx.print('Switching models is not available for this agent.', 'warn');
  const agent = await ctx.switchAgent(() => load(model));
  ctx.print(`Model switched to ${agent.providerName}/${agent.model}; the conversation continues.`);
}

async function save(file: string, ctx: SlashContext): Promise<void> {
  if (file === '') return ctx.print('Usage: /save <file>', 'warn');
  if (ctx.busy !== undefined) return ctx.print(busyNotice(ctx.busy, { name: 'save', args: file }), 'warn');
  if (ctx.lastResult === undefined) return ctx.print('No finished run to save yet.', 'warn');
  const path = resolve(ctx.cwd, file);
  await ctx.lastResult.trace.toJSONL(path);
  ctx.print(`Saved the trace of the last run to ${file}`);
}
