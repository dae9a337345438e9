import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { describeAgentYaml } from '../../../lib/config/schema.js';

const FULL = `
name: support
description: Answers customer questions
provider: openai
model: gpt-4o-mini
system_prompt: You are helpful.
temperature: 0.2
max_tokens: 800
max_iterations: 4
reasoning_strategy: plan_then_act
routing_only: false
verbose: true
enable_analytics: true
tools: []
tool_config:
  parallel: false
  approval_timeout: 30
  recursive: true
policy:
  allow: [get_*]
  review: [send_*]
  deny: [delete_*]
  deny_when:
    - { tool: run_shell, argument: command, matches: ["rm *"] }
  default: deny
retry:
  max_retries: 3
  base_delay_ms: 100
  max_delay_ms: 2000
  max_retry_after_ms: 5000
  deadline_ms: 30000
budget:
  max_cost_usd: 0.5
  max_total_tokens: 20000
  cost_warning_threshold: 0.25
trace:
  metadata: { team: support, tier: 2 }
  tool_result_chars: 500
  parent_run_id: run_0
structured:
  max_retries: 1
`;

describe('agent YAML: key groups', () => {
  test('every top-level key and group is read into camelCase', () => {
    const config = parseAgentConfig(FULL, { baseDir: import.meta.dirname });
    assert.equal(config.name, 'support');
    assert.equal(config.description, 'Answers customer questions');
    assert.equal(config.provider, 'openai');
    assert.equal(config.model, 'gpt-4o-mini');
    assert.equal(config.systemPrompt, 'You are helpful.');
    assert.equal(config.temperature, 0.2);
    assert.equal(config.maxTokens, 800);
    assert.equal(config.maxIterations, 4);
    assert.equal(config.reasoningStrategy, 'plan_then_act');
    assert.equal(config.routingOnly, false);
    assert.equal(config.verbose, true);
    assert.equal(config.enableAnalytics, true);
    assert.deepEqual(config.tools, []);
    assert.deepEqual(config.toolConfig, { parallel: false, approvalTimeout: 30, recursive: true });
    assert.deepEqual(config.policy, {
      options: { allow: ['get_*'], review: ['send_*'], deny: ['delete_*'], denyWhen: [{ tool: 'run_shell', argument: 'command', matches: ['rm *'] }], default: 'deny' },
    });
    assert.deepEqual(config.retry, { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 2000, maxRetryAfterMs: 5000, deadlineMs: 30000 });
    assert.deepEqual(config.budget, { maxCostUsd: 0.5, maxTotalTokens: 20000, costWarningThreshold: 0.25 });
    assert.deepEqual(config.trace, { metadata: { team: 'support', tier: 2 }, toolResultChars: 500, parentRunId: 'run_0' });
    assert.deepEqual(config.structured, { maxRetries: 1 });
    assert.equal(config.baseDir, import.meta.dirname);
  });

  test('the spec example keys alone are enough; absent keys stay absent (defaults apply in the Agent)', () => {
    const config = parseAgentConfig('provider: anthropic\nmodel: claude-sonnet-4-5\nsystem_prompt: Be brief.\nretry:\n  max_retries: 1\nbudget:\n  max_cost_usd: 2\n');
    assert.deepEqual(
      { ...config, source: undefined, baseDir: undefined },
      { source: undefined, baseDir: undefined, tools: [], provider: 'anthropic', model: 'claude-sonnet-4-5', systemPrompt: 'Be brief.', retry: { maxRetries: 1 }, budget: { maxCostUsd: 2 } },
    );
  });

  test('anchors and aliases are followed', () => {
    const config = parseAgentConfig('trace:\n  metadata: &meta { a: 1 }\nmodel: &m gpt-4o\nname: *m\n');
    assert.equal(config.name, 'gpt-4o');
    assert.deepEqual(config.trace?.metadata, { a: 1 });
  });

  test('describeAgentYaml documents every accepted key, nested ones included', () => {
    const keys = describeAgentYaml().map((entry) => entry.key);
    for (const key of ['provider', 'provider.base_url', 'retry.max_retries', 'budget.max_cost_usd', 'tool_config.approval_timeout', 'policy.deny_when']) {
      assert.ok(keys.includes(key), key);
    }
    assert.equal(describeAgentYaml().find((entry) => entry.key === 'max_iterations')?.default, '6');
  });

  test('describeAgentYaml lists retrieval (and its names rag, knowledge) with nested keys: RAG has landed', () => {
    const entries = describeAgentYaml();
    const keys = entries.map((entry) => entry.key);
    for (const key of ['retrieval', 'retrieval.store', 'retrieval.top_k', 'rag', 'knowledge']) assert.ok(keys.includes(key), key);
  });

  test('describeAgentYaml lists entity_memory, knowledge_graph and knowledge_memory (landed) with their nested keys', () => {
    const keys = describeAgentYaml().map((entry) => entry.key);
    for (const key of ['entity_memory.max_entities', 'knowledge_graph.min_confidence', 'knowledge_memory.max_entries']) assert.ok(keys.includes(key), key);
  });

  test('describeAgentYaml lists mcp (landed) with its nested keys', () => {
    const keys = describeAgentYaml().map((entry) => entry.key);
    assert.ok(keys.includes('mcp.servers[].command'), keys.filter((k) => k.startsWith('mcp')).join());
  });
});
