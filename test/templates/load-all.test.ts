import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { listTemplates, loadTemplate } from '../../lib/config/templates.js';
import { ScriptedProvider } from '../../lib/providers/scripted.js';
import { ensureCliBuilt, repoRoot } from '../support/cli-build.js';

/** One real tool call per template, with the context the tool needs. */
const CALLS: Record<string, { tool: string; args: Record<string, unknown>; context?: Record<string, unknown>; expect: RegExp }> = {
  customer_support: { tool: 'search_kb', args: { query: 'return policy refund' }, expect: /"id"/ },
  data_analyst: { tool: 'list_tables', args: {}, expect: /customers/ },
  research_assistant: { tool: 'web_search', args: { query: 'agentlib' }, expect: /TAVILY_API_KEY|BRAVE_API_KEY/ },
  code_reviewer: { tool: 'list_files', args: { path: 'examples' }, context: { root: repoRoot }, expect: /calculator/ },
  rag_chatbot: { tool: 'search_documents', args: { query: 'parental leave' }, expect: /source/ },
};

describe('the bundled templates load by name and their tools run', () => {
  before(() => {
    ensureCliBuilt(); // template tools import 'agentlib' (the built package)
    // web_search must report the missing key, never reach the network
    delete process.env.TAVILY_API_KEY;
    delete process.env.BRAVE_API_KEY;
  });

  test('listTemplates names the five templates', () => {
    assert.deepEqual(listTemplates(), ['code_reviewer', 'customer_support', 'data_analyst', 'rag_chatbot', 'research_assistant']);
  });

  for (const [name, call] of Object.entries(CALLS)) {
    test(`${name}: loads with a given provider and runs ${call.tool}`, async () => {
      const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: call.tool, parameters: call.args }] }, 'done'] });
      const agent = await loadTemplate(name, { provider });
      const result = await agent.run('go', { context: { ...call.context }, approve: () => true });
      assert.equal(result.content, 'done');
      const toolMessage = provider.requests[1]?.messages.find((m) => m.role === 'tool');
      assert.match(toolMessage?.content ?? '', call.expect, toolMessage?.content);
    });
  }
});
