import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { packageImports, planScaffold, rewriteSharedImports } from '../../../commands/init/scaffold.js';

const values = { name: 'n', provider: 'openai', model: 'gpt-4o-mini' };

describe('init scaffold', () => {
  test('rewriteSharedImports points ../_shared imports at ./_shared, nothing else', () => {
    const source = "import { a } from '../_shared/context.js';\nimport type { B } from \"../_shared/b.js\";\nconst c = await import('../_shared/c.js');\nimport { d } from './d.js';\n// see ../_shared/x.js\n";
    assert.equal(
      rewriteSharedImports(source),
      "import { a } from './_shared/context.js';\nimport type { B } from \"./_shared/b.js\";\nconst c = await import('./_shared/c.js');\nimport { d } from './d.js';\n// see ../_shared/x.js\n",
    );
  });

  test('packageImports lists bare specifiers, not builtins or relative paths', () => {
    assert.deepEqual(packageImports(["import { tool } from 'agentlib';\nimport { z } from 'zod';\nimport { join } from 'node:path';\nimport x from './x.js';\nimport { y } from '@scope/pkg/sub';\n"]), ['@scope/pkg', 'agentlib', 'zod']);
  });

  test('a template brings the shared helpers it imports; what moved into agentlib/rag comes from the package', () => {
    const plan = planScaffold('research_assistant', values);
    const paths = plan.files.map((file) => file.path);
    for (const file of ['agent.yaml', 'tools.ts', '_shared/context.ts']) assert.ok(paths.includes(file), file);
    assert.ok(!paths.includes('_shared/confine-path.ts'), 'helpers the template does not use stay out');
    assert.ok(!paths.some((path) => /safe-fetch|html-to-text|ip-address/.test(path)), 'the SSRF-safe fetch and HTML helpers are imported from agentlib/rag');
    assert.deepEqual(plan.packages, ['agentlib']);
    assert.ok(!paths.includes('README.md'));
  });

  test("a template's own modules and fixtures are copied; the blank template is agent.yaml, tools.ts, its cassette and its eval suite", () => {
    const analyst = planScaffold('data_analyst', values);
    const paths = analyst.files.map((file) => file.path);
    for (const file of ['sample-db.ts', 'sql-runner.ts', 'fixtures/sales.sql']) assert.ok(paths.includes(file), file);
    assert.deepEqual(analyst.packages, ['agentlib'], 'the tools import only agentlib');
    assert.deepEqual(planScaffold('blank', values).files.map((file) => file.path), ['agent.yaml', 'tools.ts', 'cassette.jsonl', 'PROVENANCE.md', 'eval.yaml']);
  });

  test('the per-case eval cassettes are written retargeted to the chosen provider and model, and the eval step replays them', () => {
    const plan = planScaffold('data_analyst', { name: 'n', provider: 'anthropic', model: 'claude-haiku-4-5' });
    assert.equal(plan.evalReplay, 'eval-cassettes');
    const cassettes = plan.files.filter((file) => file.path.startsWith('eval-cassettes/'));
    assert.equal(cassettes.length, 3);
    for (const file of cassettes) {
      const lines = String(file.content).trim().split('\n').map((line) => JSON.parse(line) as { type?: string; provider?: string; defaultModel?: string; request?: { model?: string } });
      assert.deepEqual([lines[0]?.provider, lines[0]?.defaultModel], ['anthropic', 'claude-haiku-4-5'], file.path);
      assert.ok(lines.slice(1).every((line) => line.request === undefined || line.request.model === 'claude-haiku-4-5'), file.path);
    }
    assert.equal(planScaffold('blank', values).evalReplay, undefined, 'the blank agent replays its one cassette');
  });
});
