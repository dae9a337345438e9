import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EMPTY_USAGE } from '../../../tui/chat/chat-state.js';
import { busyNotice, costText, helpText, parseSlashCommand, runsWhileBusy, toolsText } from '../../../tui/chat/slash-commands.js';
import { parseInline, parseMarkdown } from '../../../tui/chat/markdown-blocks.js';
import { contextFill, contextFillText, formatDuration, summarizeArgs } from '../../../tui/chat/chat-format.js';
import { footerLines } from '../../../tui/chat/Footer.js';
import { InputHistory } from '../../../tui/chat/hooks/use-input-history.js';
import { multiplyTool } from './helpers.js';

test('parseSlashCommand', () => {
  assert.deepEqual(parseSlashCommand('/model  gpt-4o '), { name: 'model', args: 'gpt-4o' });
  assert.deepEqual(parseSlashCommand('/HELP'), { name: 'help', args: '' });
  assert.equal(parseSlashCommand('hello /help'), undefined);
  assert.equal(parseSlashCommand('//not a command'), undefined);
});

test('while busy, commands that only show things run; /model, /reset and /save wait', () => {
  const runs = (line: string): boolean => runsWhileBusy(parseSlashCommand(line) ?? { name: '', args: '' });
  assert.deepEqual(['/help', '/?', '/trace', '/cost', '/tools', '/exit', '/quit', '/hlep'].filter((line) => !runs(line)), []);
  assert.deepEqual(['/model gpt-4o', '/model', '/reset', '/save out.jsonl'].filter((line) => runs(line)), []);
  assert.equal(busyNotice('running'), 'a turn is running: press Enter again when it has finished (esc cancels it)');
  assert.equal(busyNotice('switching', { name: 'reset', args: '' }), 'the model is loading: /reset can run when it has loaded');
});

test('help, tools and cost texts', () => {
  assert.match(helpText(), /\/trace\s+show or hide the live trace/);
  assert.match(toolsText([multiplyTool(true)]), /Tools \(1\):\n {2}multiply {2}Multiply two integers exactly\. \[approval\]/);
  assert.equal(toolsText([]), 'This agent has no tools.');
  const usage = { ...EMPTY_USAGE, promptTokens: 1000, completionTokens: 200, totalTokens: 1200, costUsd: 0.0123, llmCalls: 2, lastPromptTokens: 640 };
  assert.equal(costText(usage, 128_000), 'Session: 1.2k tokens (1000 prompt + 200 completion) in 2 LLM calls, $0.0123\nContext: 1% (640 of 128000 tokens)');
  assert.match(costText(usage, undefined), /context window unknown/);
});

test('/cost and the footer show the same context fill: <1% for a few tokens, 0% for none, ? when unknown', () => {
  const footerCtx = (lastPromptTokens: number, contextWindow: number | undefined): string => {
    const usage = { ...EMPTY_USAGE, lastPromptTokens };
    const props = { agentLabel: 'a', provider: 'p', model: 'm', usage, contextWindow, iteration: undefined, approvalMode: 'ask', running: false, width: 200 };
    return /ctx (\S+)/.exec(footerLines(props).status.join(' '))?.[1] ?? '';
  };
  const costCtx = (lastPromptTokens: number, contextWindow: number | undefined): string => /Context: (\S+)/.exec(costText({ ...EMPTY_USAGE, lastPromptTokens }, contextWindow))?.[1] ?? '';
  assert.equal(costCtx(100, 128_000), '<1%');
  assert.equal(footerCtx(100, 128_000), '<1%');
  assert.equal(costCtx(0, 128_000), '0%');
  assert.equal(footerCtx(0, 128_000), '0%');
  assert.equal(costCtx(64_000, 128_000), '50%');
  assert.equal(footerCtx(64_000, 128_000), '50%');
  assert.deepEqual([contextFillText(100, 128_000), contextFillText(0, 128_000), contextFillText(1, undefined)], ['<1%', '0%', undefined]);
});

test('markdown blocks and inline spans', () => {
  assert.deepEqual(parseMarkdown('# T\n\n- a\n  - b\n1. c\n```py\nx = 1\n\ny\n```\n> q'), [
    { kind: 'heading', level: 1, text: 'T' },
    { kind: 'blank' },
    { kind: 'item', marker: '•', indent: 0, text: 'a' },
    { kind: 'item', marker: '•', indent: 1, text: 'b' },
    { kind: 'item', marker: '1.', indent: 0, text: 'c' },
    { kind: 'code', lang: 'py', lines: ['x = 1', '', 'y'] },
    { kind: 'quote', text: 'q' },
  ]);
  assert.deepEqual(parseMarkdown('```\nunclosed'), [{ kind: 'code', lang: '', lines: ['unclosed'] }]);
  assert.deepEqual(parseInline('a **b** `c` d'), [
    { kind: 'plain', text: 'a ' },
    { kind: 'bold', text: 'b' },
    { kind: 'plain', text: ' ' },
    { kind: 'code', text: 'c' },
    { kind: 'plain', text: ' d' },
  ]);
});

test('formatting helpers', () => {
  assert.equal(formatDuration(850), '850ms');
  assert.equal(formatDuration(1250), '1.3s');
  assert.equal(formatDuration(125_000), '2m 05s');
  assert.equal(summarizeArgs({ a: 1, b: 'x y' }), 'a=1, b="x y"');
  assert.equal(contextFill(64_000, 128_000), 50);
  assert.equal(contextFill(1, undefined), undefined);
});

test('input history: up walks back, down returns to the draft', () => {
  const history = new InputHistory();
  history.add('one');
  history.add('two');
  history.add('two');
  assert.deepEqual(history.entries, ['one', 'two']);
  assert.equal(history.previous('draft'), 'two');
  assert.equal(history.previous('two'), 'one');
  assert.equal(history.previous('one'), undefined);
  assert.equal(history.next(), 'two');
  assert.equal(history.next(), 'draft');
  assert.equal(history.next(), undefined);
});
