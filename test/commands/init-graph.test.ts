import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { main } from '../../cli/main.js';
import { graphCommand } from '../../cli/commands/graph-command.js';
import { initCommand } from '../../cli/commands/init-command.js';
import { memoryIO } from '../support/cli-io.js';

// `agentlib init --template research_graph`: a research → write → review graph with a human
// review interrupt and its cassette; the written graph runs offline (no network, no API key):
// it stops at the review, and the resume publishes the writer's draft.

const root = await mkdtemp(join(tmpdir(), 'agentlib-init-graph-'));
after(() => rm(root, { recursive: true, force: true }));

async function agentlib(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({});
  io.cwd = cwd;
  const code = await main(argv, { io, commands: [initCommand, graphCommand] });
  return { code, out: io.out(), err: io.err() };
}

/** The argument words of a printed next step (`agentlib graph run graph.yaml "…" --replay …   # …`). */
function words(line: string): string[] {
  return [...line.replace(/ {3}#.*$/, '').trim().matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '').slice(1);
}

describe('agentlib init --template research_graph', () => {
  for (const provider of ['openai', 'anthropic']) {
    test(`${provider}: init writes a valid graph whose next steps run offline on its cassette: interrupt, then resume`, async () => {
      const dir = join(root, provider);
      const init = await agentlib(root, 'init', dir, '--template', 'research_graph', '--provider', provider, '--name', 'tides_graph', '--yes');
      assert.equal(init.code, 0, init.err);
      assert.match(init.out, /Created graph "tides_graph" \(template research_graph/);
      for (const file of ['graph.yaml', 'research.yaml', 'write.yaml', 'nodes.mjs', 'cassette.jsonl', 'PROVENANCE.md']) assert.match(init.out, new RegExp(`\\n {2}${file.replace('.', '\\.')}\\n`), file);
      assert.match(await readFile(join(dir, 'graph.yaml'), 'utf8'), /^name: tides_graph$/m);
      assert.match(await readFile(join(dir, 'write.yaml'), 'utf8'), new RegExp(`^provider: ${provider}$`, 'm'));

      const runLine = init.out.split('\n').find((line) => line.startsWith('  agentlib graph run '));
      assert.ok(runLine, init.out);
      const checkpoint = ['--checkpoint', `sqlite://${join(dir, 'ckpt.db')}`, '--output-format', 'json'];
      const run = await agentlib(dir, ...words(runLine), ...checkpoint);
      assert.equal(run.code, 5, run.err);
      const interrupted = JSON.parse(run.out) as { interruptId: string; interrupts: { prompt: string }[]; history: string[] };
      assert.deepEqual(interrupted.history, ['research', 'write']);
      assert.match(interrupted.interrupts[0]?.prompt ?? '', /Publish this draft\?/);
      assert.doesNotMatch(run.err, /not used/);

      const resumeLine = init.out.split('\n').find((line) => line.startsWith('  agentlib graph resume '));
      assert.ok(resumeLine, init.out);
      const resume = await agentlib(dir, ...words(resumeLine).map((w) => (w === '<interrupt-id>' ? interrupted.interruptId : w)), ...checkpoint);
      assert.equal(resume.code, 0, resume.err);
      const done = JSON.parse(resume.out) as { status: string; content: string; history: string[] };
      assert.equal(done.status, 'completed');
      assert.match(done.content, /^Tides happen because the Moon's gravity/);
      assert.deepEqual(done.history, ['research', 'write', 'review']);
    });
  }

  test('the template is offered by --template (a typo gets a did-you-mean)', async () => {
    const typo = await agentlib(root, 'init', join(root, 'typo'), '--template', 'research_grph', '--yes');
    assert.equal(typo.code, 2);
    assert.match(typo.err, /did you mean "research_graph"/);
  });
});
