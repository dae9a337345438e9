import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadAgent } from '../../../lib/config/load-agent.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { brief, issuesOf, tempProject, toolsSource } from './project.js';

const FULL = `
provider: openai
guardrails:
  input:
    - { type: pii, action: rewrite, entities: [email, iban], patterns: { employee_id: 'EMP-\\d{6}' } }
  tool_arguments:
    - { type: topic, keywords: [rm -rf], action: block }
  tool_result:
    - { type: toxicity, threshold: 0.7, severe: [burn it down], action: warn }
  output:
    - { type: length, max_words: 50, action: rewrite }
screening:
  all_tools: true
  patterns: { wire: 'wire (the )?money' }
coherence:
  model: gpt-4o-mini
  fail_closed: true
  timeout_ms: 5000
audit:
  dir: logs/audit
  privacy: hashed
  rotate_daily: false
`;

describe('agent YAML: guardrails, screening, coherence, audit', () => {
  test('the documented shapes are read (camelCase)', () => {
    const config = parseAgentConfig(FULL, { env: {} });
    assert.deepEqual(config.guardrails, {
      input: [{ type: 'pii', action: 'rewrite', entities: ['email', 'iban'], patterns: { employee_id: 'EMP-\\d{6}' } }],
      toolArguments: [{ type: 'topic', keywords: ['rm -rf'], action: 'block' }],
      toolResult: [{ type: 'toxicity', threshold: 0.7, severe: ['burn it down'], action: 'warn' }],
      output: [{ type: 'length', maxWords: 50, action: 'rewrite' }],
    });
    assert.deepEqual(config.screening, { allTools: true, patterns: { wire: 'wire (the )?money' } });
    assert.deepEqual(config.coherence, { model: 'gpt-4o-mini', failClosed: true, timeoutMs: 5000 });
    assert.deepEqual(config.audit, { dir: 'logs/audit', privacy: 'hashed', rotateDaily: false });
  });

  test('strict validation: bad regex, rewrite on tool arguments, a length guardrail with no limit, unknown keys, the spec\'s flat names', () => {
    const text = [
      'provider: openai',
      'guardrails:',
      '  tool_arguments:',
      '    - { type: pii, action: rewrite }', // 4:28
      '  output:',
      '    - { type: length }', // 6:7
      'screening:',
      '  patterns: ["(unclosed"]', // 8:14
      '  everything: true', // 9:3
      'audit:',
      '  privacy: partial', // 11:12
      'screen_tool_output: true', // 12:1
      'coherence_check: true', // 13:1
    ].join('\n');
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig(text, { env: {} }))), [
      '4:28 tool arguments cannot be rewritten: use block or warn',
      '6:7 a length guardrail needs at least one of min_chars, max_chars, min_words, max_words',
      '8:14 "screening.patterns[0]" is not a valid regular expression: Invalid regular expression: /(unclosed/g: Unterminated group',
      '9:3 unknown key "everything" under "screening"',
      '11:3 "audit" is missing the required key "dir"',
      '11:12 "audit.privacy" must be one of full, keys_only, hashed, none; got "partial"',
      '12:1 unknown key "screen_tool_output" under the top level → screening.all_tools',
      '13:1 unknown key "coherence_check" under the top level → coherence.enabled',
    ]);
  });
});

describe('loadAgent with safety keys', () => {
  let dir = '';
  let cleanup = async (): Promise<void> => {};
  before(async () => {
    const project = await tempProject({
      'tools.mjs': toolsSource('lookup'),
      'agent.yaml': [
        'name: guarded',
        'provider: openai',
        'tools: [./tools.mjs#lookup]',
        'guardrails:',
        '  input: [{ type: pii, action: rewrite }]',
        'screening:',
        '  all_tools: true',
        '  patterns: { secret_word: swordfish }',
        '  no_built_ins: true',
        '  placeholder: "<{pattern}>"',
        'coherence:',
        '  enabled: false',
        'audit:',
        '  dir: audit',
        '',
      ].join('\n'),
    });
    dir = project.dir;
    cleanup = project.cleanup;
  });
  after(async () => cleanup());

  test('guardrails, screening and the audit log all take effect', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'lookup', parameters: { q: 'say swordfish' } }] }, 'ok'] });
    const agent = await loadAgent(join(dir, 'agent.yaml'), { provider });
    await agent.run('mail ana@example.org');
    assert.equal(provider.requests[0]!.messages.at(-1)!.content, 'mail [EMAIL]');
    const fed = provider.requests[1]!.messages.find((m) => m.role === 'tool')!;
    assert.equal(fed.content, 'lookup:{"q":"say <secret_word>"}');
    await agent.flushObservers();
    const files = await readdir(join(dir, 'audit'));
    assert.equal(files.length, 1);
    const types = (await readFile(join(dir, 'audit', files[0]!), 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { type: string }).type);
    assert.deepEqual(types, ['run_start', 'llm_end', 'policy_decision', 'tool_start', 'tool_end', 'llm_end', 'run_end']);
  });
});
