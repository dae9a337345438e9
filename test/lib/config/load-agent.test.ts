import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { loadAgent } from '../../../lib/config/load-agent.js';
import { loadAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { testRuntime } from '../../support/agent-harness.js';
import { brief, rejectsWithConfigFileError, tempProject, toolsSource } from './project.js';

const AGENT = `name: support
provider: openai
model: gpt-4o-mini
system_prompt: You help customers of \${COMPANY}.
max_iterations: 3
tools:
  - ./tools.ts#lookup_customer
  - ./more/
policy:
  allow: [lookup_*, more_*]
  deny: [delete_*]
tool_config:
  parallel: false
`;

describe('loadAgent', () => {
  let dir = '';
  let cleanup = async (): Promise<void> => {};
  before(async () => {
    const project = await tempProject({
      'agent.yaml': AGENT,
      'tools.ts': toolsSource('lookup_customer', 'delete_customer'),
      'more/a.ts': toolsSource('more_a'),
      'bad-exports.yaml': 'provider: openai\ntools:\n  - ./tools.ts#lookupCustomer\n  - ./tools.ts#notATool\n  - ./tools.ts#delete_customer\n  - ./tools.ts\n  - ./dup.ts\n',
      'dup.ts': toolsSource('lookup_customer'),
      'no-provider.yaml': 'tools: []\n',
      'policy.yaml': 'deny: [lookup_*]\n',
      'policy-file.yaml': 'provider: openai\npolicy: ./policy.yaml\ntools: [./tools.ts#lookup_customer]\n',
      'bad-policy.yaml': 'deny: lookup_*\n',
      'bad-policy-file.yaml': 'policy: ./bad-policy.yaml\n',
      'missing-policy.yaml': 'policy: ./polcy.yaml\n',
    });
    dir = project.dir;
    cleanup = project.cleanup;
  });
  after(async () => cleanup());

  test('loadAgentConfig describes the agent without creating anything', async () => {
    const config = await loadAgentConfig(join(dir, 'agent.yaml'), { vars: { COMPANY: 'Acme' } });
    assert.equal(config.source, join(dir, 'agent.yaml'));
    assert.equal(config.baseDir, dir);
    assert.equal(config.systemPrompt, 'You help customers of Acme.');
    assert.deepEqual(config.tools.map((ref) => ref.kind), ['file', 'directory']);
  });

  test('returns an Agent that runs its YAML tools with a scripted provider', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'lookup_customer', parameters: { q: 'ann' } }] }, 'Ann is a customer.'] });
    const agent = await loadAgent(join(dir, 'agent.yaml'), { provider, vars: { COMPANY: 'Acme' }, config: { runtime: testRuntime() } });
    assert.ok(agent instanceof Agent);
    assert.equal(agent.name, 'support');
    assert.equal(agent.model, 'gpt-4o-mini');
    assert.deepEqual(agent.tools.map((t) => t.name), ['lookup_customer', 'more_a']);
    const result = await agent.run('Who is Ann?');
    assert.equal(result.content, 'Ann is a customer.');
    assert.equal(provider.requests[0]?.system?.startsWith('You help customers of Acme.'), true);
    const toolMessage = provider.requests[1]?.messages.find((m) => m.role === 'tool');
    assert.equal(toolMessage?.content, 'lookup_customer:{"q":"ann"}');
  });

  test('options override the file: model, maxIterations, extra AgentConfig fields', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'more_a', parameters: {} }] }, { toolCalls: [{ toolName: 'more_a', parameters: {} }] }, 'never'] });
    const agent = await loadAgent(join(dir, 'agent.yaml'), { provider, model: 'override', maxIterations: 1, vars: { COMPANY: 'X' }, config: { name: 'renamed', runtime: testRuntime() } });
    assert.equal(agent.model, 'override');
    assert.equal(agent.name, 'renamed');
    await agent.run('go');
    assert.equal(provider.calls, 1, 'maxIterations 1 stops after one LLM call');
  });

  test('the policy is built: a tool file policy denies', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'lookup_customer', parameters: {} }] }, 'done'] });
    const agent = await loadAgent(join(dir, 'policy-file.yaml'), { provider, config: { runtime: testRuntime() } });
    await agent.run('x');
    const toolMessage = provider.requests[1]?.messages.find((m) => m.role === 'tool');
    assert.match(toolMessage?.content ?? '', /deny/i);
    assert.doesNotMatch(toolMessage?.content ?? '', /lookup_customer:/);
  });

  test('unknown exports, non-tools and duplicate names are all reported at the entries', async () => {
    const error = await rejectsWithConfigFileError(loadAgent(join(dir, 'bad-exports.yaml'), { provider: new ScriptedProvider() }));
    assert.equal(error.source, join(dir, 'bad-exports.yaml'));
    assert.deepEqual(error.issues.map((i) => [i.path, i.line, i.col, i.suggestion]), [
      ['tools[0]', 3, 5, 'lookup_customer'],
      ['tools[1]', 4, 5, undefined],
      ['tools[4]', 7, 5, undefined],
    ]);
    assert.match(error.issues[0]?.message ?? '', /has no export "lookupCustomer"$/);
    assert.match(error.message, /bad-exports\.yaml:3:5: .*has no export "lookupCustomer" — did you mean "lookup_customer"\?/);
    assert.match(error.issues[1]?.message ?? '', /Export "notATool" .* is not a tool/);
    // ./tools.ts (tools[3]) holds the same tool objects as the #export entries: counted once, no issue.
    assert.equal(error.issues[2]?.message, 'tool "lookup_customer" from "./dup.ts" is also defined by "./tools.ts"');
  });

  test('no provider anywhere is an error; a policy file is validated with its own positions', async () => {
    const missing = await rejectsWithConfigFileError(loadAgent(join(dir, 'no-provider.yaml')));
    assert.equal(missing.issues[0]?.path, 'provider');
    const bad = await rejectsWithConfigFileError(loadAgentConfig(join(dir, 'bad-policy-file.yaml')));
    assert.deepEqual(brief(bad.issues).map((line) => line.slice(0, 4)), ['1:9 ']);
    assert.match(bad.issues[0]?.message ?? '', /invalid policy file "\.\/bad-policy\.yaml": .*bad-policy\.yaml:1:7/);
    const typo = await rejectsWithConfigFileError(loadAgentConfig(join(dir, 'missing-policy.yaml')));
    assert.equal(typo.issues[0]?.suggestion, './policy.yaml');
  });

  test('an unreadable file is a ConfigurationError', async () => {
    await assert.rejects(loadAgent(join(dir, 'nope.yaml')), (e: unknown) => ConfigurationError.isInstance(e) && /cannot read agent config/.test(e.message));
  });
});
