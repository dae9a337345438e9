import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { initCommand } from '../../cli/commands/init-command.js';
import { main } from '../../cli/main.js';
import { loadAgent } from '../../lib/config/load-agent.js';
import { loadAgentConfig } from '../../lib/config/parse-agent-config.js';
import { listTemplates, loadTemplate, templatePath } from '../../lib/config/templates.js';
import { ScriptedProvider } from '../../lib/providers/scripted.js';
import { ensureCliBuilt } from '../support/cli-build.js';
import { memoryIO } from '../support/cli-io.js';
import { toolContext } from '../templates/tool-context.js';
import { initProject } from './init/helpers.js';

/** `agentlib init …` in-process (stdin is not a terminal), with `cwd` as the working directory. */
async function init(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({});
  io.cwd = cwd;
  const code = await main(['init', ...argv], { io, commands: [initCommand] });
  return { code, out: io.out(), err: io.err() };
}

/** A tool call per template that only works when the copied tools find their fixtures and helpers. */
const SMOKE_CALLS: Readonly<Record<string, { tool: string; args: Record<string, unknown>; context?: (dir: string) => unknown; expect: RegExp }>> = {
  blank: { tool: 'convert_temperature', args: { value: 21, from: 'C', to: 'F' }, expect: /69\.8/ },
  code_reviewer: { tool: 'list_files', args: { path: '.' }, context: (dir) => ({ root: dir }), expect: /tools\.ts/ },
  customer_support: { tool: 'search_kb', args: { query: 'return my espresso machine for a refund', top_k: 3 }, expect: /returns-and-refunds/ },
  data_analyst: { tool: 'list_tables', args: {}, expect: /order_items/ },
  rag_chatbot: { tool: 'search_documents', args: { query: 'parental leave', top_k: 2 }, expect: /parental/i },
};

describe('agentlib init (in-process, no terminal)', () => {
  let project: ReturnType<typeof initProject>;
  before(() => {
    // the written tools import 'agentlib', which resolves to the repo's dist/
    ensureCliBuilt();
    project = initProject();
  });
  after(() => project.cleanup());

  for (const template of ['blank', ...listTemplates()]) {
    test(`--template ${template} --yes writes an agent that validates and whose tools load`, async () => {
      const dir = join(project.dir, `t-${template}`);
      const run = await init(project.dir, dir, '--template', template, '--yes');
      assert.equal(run.code, 0, run.err);
      assert.equal(run.err, '');
      assert.match(run.out, /agent\.yaml is valid/);
      assert.ok(existsSync(join(dir, 'agent.yaml')) && existsSync(join(dir, 'tools.ts')));
      const config = await loadAgentConfig(join(dir, 'agent.yaml'));
      assert.equal(config.provider, 'openai');
      assert.equal(config.model, 'gpt-4o-mini');
      const tools = readFileSync(join(dir, 'tools.ts'), 'utf8');
      assert.doesNotMatch(tools, /\.\.\/_shared\//, 'imports of ../_shared are rewritten');
      const agent = await loadAgent(join(dir, 'agent.yaml'), { provider: new ScriptedProvider() });
      const names = agent.tools.map((t) => t.name).sort();
      if (template === 'blank') assert.deepEqual(names, ['convert_temperature']);
      else {
        const original = await loadTemplate(template, { provider: new ScriptedProvider() });
        assert.deepEqual(names, original.tools.map((t) => t.name).sort());
      }
      const smoke = SMOKE_CALLS[template];
      if (smoke !== undefined) {
        const found = agent.tools.find((t) => t.name === smoke.tool);
        assert.ok(found, `${smoke.tool} loaded`);
        const output = await found.invoke(smoke.args, toolContext(smoke.context?.(dir)));
        assert.match(output.content, smoke.expect);
      }
    });
  }

  test('the blank template: a commented agent.yaml and a tools.ts stub with one tool() and zod', async () => {
    const dir = join(project.dir, 'blank-files');
    const run = await init(project.dir, dir, '--yes');
    assert.equal(run.code, 0, run.err);
    const yaml = readFileSync(join(dir, 'agent.yaml'), 'utf8');
    assert.match(yaml, /^# An agent created by `agentlib init`/);
    assert.match(yaml, /^name: my_agent$/m);
    assert.match(yaml, /^ {2}- \.\/tools\.ts$/m);
    assert.match(yaml, /allow: \[convert_temperature\]/);
    const tools = readFileSync(join(dir, 'tools.ts'), 'utf8');
    assert.match(tools, /import \{ tool, z \} from 'agentlib';/);
    assert.doesNotMatch(tools, /from 'zod'/, 'the tools import only agentlib');
    assert.match(tools, /^\/\*\*/);
    assert.match(run.out, /Created agent "my_agent" \(template blank, openai gpt-4o-mini\)/);
    assert.doesNotMatch(run.out, /npm install/, 'agentlib resolves from the project: nothing to install');
    assert.match(run.out, /^ {2}agentlib run agent\.yaml "What is 21 degrees Celsius in Fahrenheit\?" --replay cassette\.jsonl {3}# offline, no API key/m);
    assert.ok(existsSync(join(dir, 'cassette.jsonl')) && existsSync(join(dir, 'PROVENANCE.md')));
    assert.match(run.out, /export OPENAI_API_KEY=/);
    assert.match(run.out, /agentlib doctor/);
    assert.match(run.out, /^ {2}agentlib run agent\.yaml "What is 21 degrees Celsius in Fahrenheit\?"$/m);
  });

  test('writes into the working directory when no dir is given', async () => {
    const dir = join(project.dir, 'cwd-target');
    mkdirSync(dir);
    const run = await init(dir, '-y');
    assert.equal(run.code, 0, run.err);
    assert.ok(existsSync(join(dir, 'agent.yaml')));
    assert.doesNotMatch(run.out, /^ {2}cd /m);
  });

  test('a template copies its shared helpers into ./_shared and its fixtures next to tools.ts', async () => {
    const dir = join(project.dir, 'copied');
    const run = await init(project.dir, dir, '--template', 'customer_support', '--yes', '--json');
    assert.equal(run.code, 0, run.err);
    const doc = JSON.parse(run.out) as { files: string[] };
    for (const file of ['_shared/context.ts', '_shared/markdown-docs.ts', 'fixtures/kb/orders.json']) assert.ok(doc.files.includes(file), file);
    assert.ok(!doc.files.includes('README.md'));
    for (const file of doc.files) assert.ok(existsSync(join(dir, file)), file);
    assert.match(readFileSync(join(dir, 'tools.ts'), 'utf8'), /from '\.\/_shared\/context\.js'/);
  });

  test('--provider and --model are written into agent.yaml; the model defaults to the provider\'s', async () => {
    const a = join(project.dir, 'anthropic');
    assert.equal((await init(project.dir, a, '--template', 'rag_chatbot', '--provider', 'anthropic', '--name', 'handbook', '-y')).code, 0);
    const config = await loadAgentConfig(join(a, 'agent.yaml'));
    assert.equal(config.name, 'handbook');
    assert.equal(config.provider, 'anthropic');
    assert.equal(config.model, 'claude-haiku-4-5');

    const b = join(project.dir, 'ollama');
    const run = await init(project.dir, b, '--provider', 'Ollama', '--model', 'qwen3:8b', '-y');
    assert.equal(run.code, 0, run.err);
    const text = readFileSync(join(b, 'agent.yaml'), 'utf8');
    assert.match(text, /^provider: ollama\nmodel: qwen3:8b$/m);
    assert.match(run.out, /ollama pull qwen3:8b/);
  });

  test("the template's comments, key order and prompt survive; model goes right after provider", async () => {
    const dir = join(project.dir, 'comments');
    assert.equal((await init(project.dir, dir, '-t', 'customer_support', '-p', 'gemini', '-y')).code, 0);
    const original = readFileSync(templatePath('customer_support'), 'utf8');
    const written = readFileSync(join(dir, 'agent.yaml'), 'utf8');
    const expected = original.replace('provider: openai\n', 'provider: gemini\nmodel: gemini-2.5-flash\n');
    assert.equal(written, expected);
  });

  test('refuses to overwrite existing files without --force (exit 2, naming them); --force overwrites', async () => {
    const dir = join(project.dir, 'existing');
    mkdirSync(dir);
    writeFileSync(join(dir, 'tools.ts'), '// mine\n');
    const refused = await init(project.dir, dir, '-y');
    assert.equal(refused.code, 2);
    assert.match(refused.err, /not overwriting a file that exists in existing: tools\.ts/);
    assert.match(refused.err, /--force/);
    assert.equal(readFileSync(join(dir, 'tools.ts'), 'utf8'), '// mine\n');
    assert.ok(!existsSync(join(dir, 'agent.yaml')), 'nothing is written when a file exists');

    const forced = await init(project.dir, dir, '-y', '--force');
    assert.equal(forced.code, 0, forced.err);
    assert.match(readFileSync(join(dir, 'tools.ts'), 'utf8'), /convert_temperature/);
    assert.match(forced.out, /Overwrote a file that existed/);
  });

  test('a mistyped --template or --provider is exit 2 with a did-you-mean', async () => {
    const typo = await init(project.dir, join(project.dir, 'typo'), '--template', 'customer_suport', '-y');
    assert.equal(typo.code, 2);
    assert.match(typo.err, /unknown template "customer_suport" for --template — did you mean "customer_support"\?/);
    assert.match(typo.err, /blank, code_reviewer, customer_support/);
    assert.ok(!existsSync(join(project.dir, 'typo')));

    const provider = await init(project.dir, join(project.dir, 'typo'), '--provider', 'antropic', '-y');
    assert.equal(provider.code, 2);
    assert.match(provider.err, /unknown provider "antropic" for --provider — did you mean "anthropic"\?/);
  });

  test('an invalid --name or an empty --model is exit 2', async () => {
    const name = await init(project.dir, join(project.dir, 'bad'), '--name', '"oops', '-y');
    assert.equal(name.code, 2);
    assert.match(name.err, /--name: invalid agent name/);
    const model = await init(project.dir, join(project.dir, 'bad'), '--model', '', '-y');
    assert.equal(model.code, 2);
    assert.match(model.err, /--model: the model must not be empty/);
  });

  test('--json prints one versioned document with the files, template, provider and model', async () => {
    const dir = join(project.dir, 'json');
    const run = await init(project.dir, dir, '-t', 'data_analyst', '-p', 'anthropic', '--json');
    assert.equal(run.code, 0, run.err);
    const doc = JSON.parse(run.out) as Record<string, unknown>;
    assert.equal(doc.version, 1);
    assert.equal(doc.template, 'data_analyst');
    assert.equal(doc.provider, 'anthropic');
    assert.equal(doc.model, 'claude-haiku-4-5');
    assert.equal(doc.dir, dir);
    assert.deepEqual(doc.packages, ['agentlib']);
    assert.ok(Array.isArray(doc.files) && doc.files.includes('agent.yaml') && doc.files.includes('sample-db.ts') && doc.files.includes('fixtures/sales.sql'));
  });
});
