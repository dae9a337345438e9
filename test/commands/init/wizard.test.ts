import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runInit } from '../../../commands/init.js';
import { templateChoices } from '../../../commands/init/choices.js';
import { defaultAnswers, runWizard, type InitAnswers } from '../../../commands/init/wizard.js';
import type { CommandArguments, CommandContext } from '../../../cli/command-descriptor.js';
import { loadAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { memoryIO } from '../../support/cli-io.js';
import { scriptedPrompter } from './helpers.js';

const noFiles = () => ({ files: ['agent.yaml', 'tools.ts'], existing: [] as string[] });

describe('init wizard (scripted prompter)', () => {
  test('asks template, name, provider, model and confirms; Enter everywhere takes the defaults', async () => {
    const prompter = scriptedPrompter([undefined, undefined, undefined, undefined, undefined]);
    const result = await runWizard(prompter, { preset: {}, templates: templateChoices(), dirLabel: '.', plan: noFiles, force: false });
    assert.deepEqual(result, { answers: { template: 'blank', name: 'my_agent', provider: 'openai', model: 'gpt-4o-mini' }, write: true, overwrite: false });
    assert.deepEqual(prompter.asked.map((q) => [q.kind, q.message]), [
      ['select', 'Template'],
      ['input', 'Agent name'],
      ['select', 'Provider'],
      ['input', 'Model'],
      ['confirm', 'Write agent.yaml, tools.ts to .?'],
    ]);
    const templates = prompter.asked[0]?.choices ?? [];
    assert.equal(templates[0]?.value, 'blank');
    assert.ok(templates.some((c) => c.value === 'customer_support' && /coffee-gear shop/.test(c.description ?? '')), 'descriptions come from the READMEs');
    assert.ok(templates.every((c) => !(c.description ?? '').startsWith('#')));
  });

  test('defaults follow earlier answers: the name from the template, the model from the provider', async () => {
    const prompter = scriptedPrompter(['data_analyst', undefined, 'anthropic', undefined, true]);
    const result = await runWizard(prompter, { preset: {}, templates: templateChoices(), dirLabel: 'x', plan: noFiles, force: false });
    assert.deepEqual(result.answers, { template: 'data_analyst', name: 'data_analyst', provider: 'anthropic', model: 'claude-haiku-4-5' });
    assert.equal(prompter.asked[1]?.default, 'data_analyst');
    assert.equal(prompter.asked[3]?.default, 'claude-haiku-4-5');
  });

  test('values given as flags are not asked', async () => {
    const prompter = scriptedPrompter(['bot', true]);
    const result = await runWizard(prompter, { preset: { template: 'rag_chatbot', provider: 'ollama', model: 'qwen3' }, templates: templateChoices(), dirLabel: '.', plan: noFiles, force: false });
    assert.deepEqual(result.answers, { template: 'rag_chatbot', name: 'bot', provider: 'ollama', model: 'qwen3' });
    assert.deepEqual(prompter.asked.map((q) => q.message), ['Agent name', 'Write agent.yaml, tools.ts to .?']);
  });

  test('the name and model questions validate their answers', async () => {
    const prompter = scriptedPrompter(['blank', 'fine name', 'openai', 'gpt-4.1', false]);
    await runWizard(prompter, { preset: {}, templates: templateChoices(), dirLabel: '.', plan: noFiles, force: false });
    const name = prompter.asked[1]?.validate;
    const model = prompter.asked[3]?.validate;
    assert.equal(name?.('my-agent'), true);
    assert.match(String(name?.('')), /must not be empty/);
    assert.match(String(name?.('-x')), /invalid agent name/);
    assert.equal(model?.('llama3.2:3b'), true);
    assert.match(String(model?.('gpt 4')), /no spaces/);
  });

  test('existing files: asks to overwrite (default no) instead of the plain confirmation', async () => {
    const plan = (a: InitAnswers) => ({ files: ['agent.yaml', 'tools.ts'], existing: a.template === 'blank' ? ['tools.ts'] : [] });
    const declined = scriptedPrompter([undefined, undefined, undefined, undefined, undefined]);
    const no = await runWizard(declined, { preset: {}, templates: templateChoices(), dirLabel: 'proj', plan, force: false });
    assert.deepEqual({ write: no.write, overwrite: no.overwrite }, { write: false, overwrite: false });
    assert.equal(declined.asked.at(-1)?.message, 'tools.ts already exists in proj. Overwrite?');
    assert.equal(declined.asked.at(-1)?.default, false);
    const yes = await runWizard(scriptedPrompter([undefined, undefined, undefined, undefined, true]), { preset: {}, templates: templateChoices(), dirLabel: 'proj', plan, force: false });
    assert.deepEqual({ write: yes.write, overwrite: yes.overwrite }, { write: true, overwrite: true });
    const forced = scriptedPrompter([undefined, undefined, undefined, undefined, true]);
    await runWizard(forced, { preset: {}, templates: templateChoices(), dirLabel: 'proj', plan, force: true });
    assert.equal(forced.asked.at(-1)?.message, 'Write agent.yaml, tools.ts to proj?');
  });

  test('defaultAnswers fills what the flags left open', () => {
    assert.deepEqual(defaultAnswers({}), { template: 'blank', name: 'my_agent', provider: 'openai', model: 'gpt-4o-mini' });
    assert.deepEqual(defaultAnswers({ template: 'code_reviewer', provider: 'gemini' }), { template: 'code_reviewer', name: 'code_reviewer', provider: 'gemini', model: 'gemini-2.5-flash' });
  });
});

describe('runInit with the wizard', () => {
  const context = (cwd: string) => {
    const io = memoryIO({});
    io.cwd = cwd;
    const ctx: CommandContext = { io, signal: new AbortController().signal, version: '0.0.0', color: false };
    return { io, ctx };
  };
  const args = (extra: Record<string, unknown>): CommandArguments => ({ _: ['init'], color: false, debug: false, ...extra });

  test('writes what was answered, then validates it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentlib-init-wizard-'));
    try {
      const { io, ctx } = context(dir);
      const prompter = scriptedPrompter(['customer_support', 'kettle-help', 'gemini', 'gemini-2.5-pro', true]);
      const code = await runInit(args({ dir: 'out' }), ctx, { prompter, interactive: true });
      assert.equal(code, 0, io.err());
      const config = await loadAgentConfig(join(dir, 'out', 'agent.yaml'));
      assert.deepEqual([config.name, config.provider, config.model], ['kettle-help', 'gemini', 'gemini-2.5-pro']);
      assert.match(io.out(), /in out:/);
      assert.match(io.out(), /export GEMINI_API_KEY/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('declining writes nothing; an accepted overwrite replaces the files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentlib-init-wizard-'));
    try {
      const declined = context(dir);
      assert.equal(await runInit(args({}), declined.ctx, { prompter: scriptedPrompter([undefined, undefined, undefined, undefined, false]), interactive: true }), 0);
      assert.ok(!existsSync(join(dir, 'agent.yaml')));
      assert.match(declined.io.err(), /Nothing written/);

      writeFileSync(join(dir, 'agent.yaml'), 'name: old\n');
      const accepted = context(dir);
      assert.equal(await runInit(args({}), accepted.ctx, { prompter: scriptedPrompter([undefined, undefined, undefined, undefined, true]), interactive: true }), 0, accepted.io.err());
      assert.match(readFileSync(join(dir, 'agent.yaml'), 'utf8'), /^name: my_agent$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
