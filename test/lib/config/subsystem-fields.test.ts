import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AGENT_FIELDS } from '../../../lib/config/agent-fields.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import type { ReadContext } from '../../../lib/config/read-context.js';
import { readMapping } from '../../../lib/config/read-mapping.js';
import { loadYaml } from '../../../lib/config/yaml-module.js';
import type { ConfigIssue } from '../../../lib/core/errors/config-file-error.js';
import { brief } from './project.js';

/** Reads `text` with the file's key tables only (what parseAgentConfig reads before its file-level checks). */
function readFields(text: string): { values: Record<string, unknown> | undefined; issues: ConfigIssue[] } {
  const yaml = loadYaml();
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter });
  const ctx: ReadContext = { yaml, doc, lineCounter, issues: [], lookup: () => undefined, baseDir: import.meta.dirname };
  const values = readMapping(ctx, doc.contents, '', AGENT_FIELDS);
  return { values, issues: ctx.issues };
}

const VALID = `
memory:
  max_messages: 30
  summarize_on_trim: true
  summarize_model: gpt-4o-mini
session:
  store: sqlite
  id: user-42
  path: .agentlib/agentlib.db
  ttl: 3600
guardrails:
  input:
    - { type: topic, keywords: [politics], action: block }
    - { type: pii, action: rewrite, entities: [email, phone] }
  output:
    - { type: length, max_chars: 2000, action: rewrite }
    - { type: format, json: true, required_keys: [answer] }
mcp:
  servers:
    - name: files
      command: npx
      args: [-y, "@modelcontextprotocol/server-filesystem", "."]
    - name: remote
      url: https://mcp.example.com/mcp
      headers: { Authorization: "Bearer \${TOKEN:-none}" }
`;

describe('agent YAML: memory, session, guardrails and mcp have landed', () => {
  test('a file with all of them parses without an issue', () => {
    const config = parseAgentConfig(VALID, { env: {} });
    assert.deepEqual([config.memory?.maxMessages, config.session?.id, config.guardrails?.input?.length, config.mcp?.servers?.length], [30, 'user-42', 2, 2]);
  });
});

describe('agent YAML: the validators of memory, session, guardrails and mcp', () => {
  test('their documented shapes are read (camelCase)', () => {
    const { values: config = {}, issues } = readFields(VALID);
    assert.deepEqual(issues, []);
    assert.deepEqual(config.memory, { maxMessages: 30, summarizeOnTrim: true, summarizeModel: 'gpt-4o-mini' });
    assert.deepEqual(config.session, { store: 'sqlite', id: 'user-42', path: '.agentlib/agentlib.db', ttl: 3600 });
    assert.deepEqual(config.guardrails, {
      input: [{ type: 'topic', keywords: ['politics'], action: 'block' }, { type: 'pii', action: 'rewrite', entities: ['email', 'phone'] }],
      output: [{ type: 'length', maxChars: 2000, action: 'rewrite' }, { type: 'format', json: true, requiredKeys: ['answer'] }],
    });
    assert.deepEqual(config.mcp, {
      servers: [
        { name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], transport: 'stdio' },
        { name: 'remote', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer none' }, transport: 'http' },
      ],
    });
  });

  test('they are validated strictly', () => {
    const text = [
      'memory:',
      '  max_mesages: 10', // 2:3
      'session:',
      '  store: postgres', // 4:10
      '  id: ../escape', // 5:7
      'guardrails:',
      '  input:',
      '    - type: pii',
      '      max_chars: 3', // 9:7 (a length option on a pii guardrail)
      '    - type: toxicty', // 10:13
      '    - action: warn', // 11:7 (no type)
      'mcp:',
      '  servers:',
      '    - name: x', // 14:7
      '      transport: http',
      '',
    ].join('\n');
    assert.deepEqual(brief(readFields(text).issues), [
      '2:3 unknown key "max_mesages" under "memory" → max_messages',
      '4:10 "session.store" must be one of memory, file, sqlite, redis; got "postgres"',
      '5:7 "session.id" must be 1–128 characters of A-Z a-z 0-9 _ . - (no ".."); got "../escape"',
      '9:7 unknown key "max_chars" under "guardrails.input[0]"',
      '10:13 "guardrails.input[1].type" must be one of topic, pii, toxicity, format, length; got "toxicty" → toxicity',
      '11:7 "guardrails.input[2]" is missing the required key "type"',
      '14:7 MCP server "x" (http) needs "url"',
    ]);
  });
});
