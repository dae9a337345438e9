import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadAgentConfig, parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { ToolPolicy } from '../../../lib/safety/tool-policy.js';
import { brief, issuesOf, rejectsWithConfigFileError, tempProject } from './project.js';

const DEEPER = 'invalid YAML: bad indentation: this line is indented deeper than the key above it, so it would continue that key\'s plain value; line it up with the keys it belongs to';

describe('agent YAML: an indentation error points at the badly indented line', () => {
  let dir = '';
  let cleanup = async (): Promise<void> => {};
  before(async () => {
    const project = await tempProject({ 'agent.yaml': 'name: support\nprovider: openai\nretry:\n  max_retries: 2\n    base_delay_ms: 100\nmodel: gpt-4o-mini\n' });
    dir = project.dir;
    cleanup = project.cleanup;
  });
  after(async () => cleanup());

  test('the loader reports file:line:col of the over-indented line (not the line above)', async () => {
    const error = await rejectsWithConfigFileError(loadAgentConfig(join(dir, 'agent.yaml')));
    assert.deepEqual(brief(error.issues), [`5:5 ${DEEPER}`]);
    assert.match(error.message, /agent\.yaml:5:5: invalid YAML: bad indentation/);
  });

  test('a key indented under a scalar value, and blank or comment lines in between', () => {
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('name: a\n  provider: openai\nmodel: x\n'))), [`2:3 ${DEEPER}`]);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('retry:\n  max_retries: 2\n\n    base_delay_ms: 1\n'))), [`4:5 ${DEEPER}`]);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('tools:\n  - ./a.ts\n    x: 1\n'))), [`3:5 ${DEEPER}`]);
  });

  test('an item left of its siblings (or right of them after a comment) is placed on its key', () => {
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('retry:\n    max_retries: 2\n  base_delay_ms: 1\n'))), ['3:3 invalid YAML: bad indentation: All mapping items must start at the same column']);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('retry:\n  max_retries: 2\n\n  # note\n    base_delay_ms: 1\n'))), ['5:5 invalid YAML: bad indentation: All mapping items must start at the same column']);
  });

  test('a policy file gets the same position', () => {
    assert.throws(() => ToolPolicy.fromYaml('allow:\n  - read_*\ndeny: [x]\n  review: [y]\n', { source: 'policy.yaml' }), /^ConfigurationError: invalid tool policy YAML at policy\.yaml:4:3: bad indentation/);
  });
});
