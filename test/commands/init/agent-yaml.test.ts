import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BLANK_AGENT_YAML, setAgentValues } from '../../../commands/init/agent-yaml.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';

const values = { name: 'bot', provider: 'anthropic', model: 'claude-sonnet-4-5' };

describe('setAgentValues', () => {
  test('replaces name, provider and model in place, keeping comments and the rest of the file', () => {
    const text = '# top\nname: old # the name\n# which provider\nprovider: openai\nmodel: gpt-4o # pinned\ntools: [./tools.ts]\n';
    assert.equal(setAgentValues(text, values), '# top\nname: bot # the name\n# which provider\nprovider: anthropic\nmodel: claude-sonnet-4-5 # pinned\ntools: [./tools.ts]\n');
  });

  test('adds model right after provider, and name/provider when missing', () => {
    assert.equal(setAgentValues('name: a\nprovider: openai\nmax_iterations: 3\n', values), 'name: bot\nprovider: anthropic\nmodel: claude-sonnet-4-5\nmax_iterations: 3\n');
    assert.equal(setAgentValues('# only\nmax_iterations: 3\n', values), '# only\nmax_iterations: 3\nname: bot\nprovider: anthropic\nmodel: claude-sonnet-4-5\n');
  });

  test('a provider mapping becomes the chosen name; block scalars stay intact', () => {
    const text = 'name: a\nprovider:\n  type: openai\n  model: gpt-4o\nsystem_prompt: |\n  line one\n  line two\n';
    const out = setAgentValues(text, values);
    assert.equal(out, 'name: bot\nprovider: anthropic\nmodel: claude-sonnet-4-5\nsystem_prompt: |\n  line one\n  line two\n');
  });

  test('quotes values that need it', () => {
    const out = setAgentValues('name: a\nprovider: openai\n', { name: 'yes', provider: 'ollama', model: 'llama3.2:3b' });
    const config = parseAgentConfig(out);
    assert.equal(config.name, 'yes');
    assert.equal(config.model, 'llama3.2:3b');
  });

  test('the blank agent.yaml is valid with any provider', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentlib-init-yaml-'));
    try {
      writeFileSync(join(dir, 'tools.ts'), 'export {};\n');
      for (const provider of ['openai', 'anthropic', 'gemini', 'ollama']) {
        const config = parseAgentConfig(setAgentValues(BLANK_AGENT_YAML, { name: 'x', provider, model: 'm' }), { baseDir: dir });
        assert.equal(config.provider, provider);
        assert.equal(config.model, 'm');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
