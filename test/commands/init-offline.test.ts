// A user's first steps, outside the repository: a fresh project in the OS temp dir installs agentlib
// from a checkout (`npm install <checkout>`, offline: a link, as the README says), `agentlib init`
// writes each template there with the built binary, and the written agent runs offline on the
// cassette init wrote beside it. The written tools must resolve everything they import from that
// project, where only agentlib is installed.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { execa } from 'execa';
import { binPath, ensureCliBuilt, repoRoot } from '../support/cli-build.js';
import { EXPECTED_TOOLS, keylessEnv, shellWords, toolNames, type RunDocument } from '../templates/offline-run.js';

let project = '';

async function agentlib(cwd: string, ...args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return agentlibWith({}, cwd, ...args);
}

async function agentlibWith(env: Record<string, string>, cwd: string, ...args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const run = await execa(process.execPath, [binPath, ...args], { cwd, reject: false, extendEnv: false, env: { ...keylessEnv(), ...env } });
  return { exitCode: run.exitCode ?? -1, stdout: run.stdout, stderr: run.stderr };
}

/** The offline-run line of init's next steps, as arguments. */
function offlineStep(initOutput: string): string[] {
  const line = initOutput.split('\n').find((text) => /^ {2}agentlib run agent\.yaml .*--replay cassette\.jsonl/.test(text));
  assert.ok(line, `init prints an offline run:\n${initOutput}`);
  const words = shellWords(line.replace(/ {3}#.*$/, '').trim());
  return words.slice(1);
}

// The cases are independent (a folder each): two at a time.
describe('agentlib init outside the repository, with agentlib installed from a checkout', { concurrency: 2 }, () => {
  before(async () => {
    ensureCliBuilt();
    project = mkdtempSync(join(tmpdir(), 'agentlib-user-'));
    // what a user with a checkout does (README: Install); --offline: a folder install is a link, no registry
    const install = await execa('npm', ['install', repoRoot, '--offline', '--ignore-scripts', '--no-package-lock', '--no-audit', '--no-fund'], { cwd: project, reject: false });
    assert.equal(install.exitCode, 0, install.stderr);
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  for (const [template, expected] of Object.entries(EXPECTED_TOOLS)) {
    test(`${template}: init writes an agent that runs offline on its cassette`, async () => {
      const init = await agentlib(project, 'init', template, '--template', template, '--yes');
      assert.equal(init.exitCode, 0, init.stderr);
      assert.doesNotMatch(init.stdout, /npm install/, 'agentlib already resolves from the project: no install step');
      const dir = join(project, template);
      const run = await agentlib(dir, ...offlineStep(init.stdout), '--output-format', 'json', '--no-trace');
      assert.equal(run.exitCode, 0, run.stderr);
      const doc = JSON.parse(run.stdout) as RunDocument;
      assert.equal(doc.status, 'completed');
      assert.deepEqual(toolNames(doc), expected);
      // the eval suite init wrote passes on the same cassette (retargeted to the chosen model)
      // (per-case cassettes in eval-cassettes/ where the template has them, retargeted the same way)
      const evalStep = /^ {2}agentlib eval run eval\.yaml --replay (eval-cassettes|cassette\.jsonl) {3}#/m.exec(init.stdout);
      assert.ok(evalStep, init.stdout);
      const replay = evalStep[1] as string;
      const evalRun = await agentlib(dir, 'eval', 'run', 'eval.yaml', '--replay', replay, '--json');
      assert.equal(evalRun.exitCode, 0, `${evalRun.stdout}\n${evalRun.stderr}`);
      const counts = (JSON.parse(evalRun.stdout) as { report: { summary: { counts: { pass: number; fail: number; error: number } } } }).report.summary.counts;
      assert.deepEqual([counts.fail, counts.error], [0, 0]);
      assert.equal(counts.pass, replay === 'eval-cassettes' ? readdirSync(join(dir, 'eval-cassettes')).length : 1, 'every case of the suite passes');
      if (template === 'data_analyst') {
        // doctor imports the tools (agentlib/storage's SQLite, from agentlib's own install) and approves them
        const doctor = await agentlibWith({ OPENAI_API_KEY: 'sk-test-not-a-key' }, dir, 'doctor', '--offline', '--json');
        const report = JSON.parse(doctor.stdout) as { checks: { id: string; status: string; detail: string }[] };
        const tools = report.checks.find((check) => check.id === 'tools');
        assert.equal(tools?.status, 'ok', tools?.detail);
        assert.match(tools.detail, /3 tools loaded: describe_table, list_tables, run_sql/);
        assert.equal(doctor.exitCode, 0, doctor.stdout);
      }
      if (template === 'rag_chatbot') {
        // search_documents is the retrieval tool over the index init copied; the answer cites its source
        assert.ok(existsSync(join(dir, 'index.db')), 'init copies the shipped index');
        assert.match(doc.content, /\[fixtures\/docs\/time-off-policy\.md\]/);
      }
      if (template === 'customer_support') {
        const yaml = readFileSync(join(dir, 'agent.yaml'), 'utf8');
        assert.match(yaml, /^# {3}agentlib run agent\.yaml "How do I return my espresso machine\?" --replay cassette\.jsonl$/m, 'agent.yaml names its offline run');
      }
    });
  }

  test('an agent written for another provider and model replays its cassette as that provider and model', async () => {
    const init = await agentlib(project, 'init', 'rag-anthropic', '--template', 'rag_chatbot', '--provider', 'anthropic', '--yes');
    assert.equal(init.exitCode, 0, init.stderr);
    const run = await agentlib(join(project, 'rag-anthropic'), ...offlineStep(init.stdout), '--output-format', 'json', '--no-trace');
    assert.equal(run.exitCode, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as RunDocument;
    assert.equal(doc.provider, 'anthropic');
    assert.equal(doc.model, 'claude-haiku-4-5');
    assert.deepEqual(toolNames(doc), ['search_documents']);
  });

  test('doctor fails (exit 2) on an agent whose tool module imports a package the project lacks, as run does', async () => {
    const dir = join(project, 'broken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'agent.yaml'), 'name: broken\nprovider: openai\ntools:\n  - ./tools.ts\n');
    writeFileSync(join(dir, 'tools.ts'), "import { tool, z } from 'agentlib';\nimport { parse } from 'yaml';\n\nexport const echo = tool({ name: 'echo', description: 'Echo the text back', parameters: z.object({ text: z.string() }), execute: ({ text }) => parse(text) });\n");
    const doctor = await agentlibWith({ OPENAI_API_KEY: 'sk-test-not-a-key' }, dir, 'doctor', '--offline', '--json');
    assert.equal(doctor.exitCode, 2, doctor.stdout);
    const report = JSON.parse(doctor.stdout) as { checks: { id: string; status: string; detail: string; hint?: string }[] };
    assert.equal(report.checks.find((check) => check.id === 'config')?.status, 'ok', 'the file itself is valid');
    const tools = report.checks.find((check) => check.id === 'tools');
    assert.equal(tools?.status, 'fail');
    assert.match(tools.detail, /yaml/);
    assert.match(tools.hint ?? '', /npm install yaml/);
    const run = await agentlib(dir, 'run', 'agent.yaml', 'hi', '--replay', join(repoRoot, 'templates', '_blank', 'cassette.jsonl'));
    assert.equal(run.exitCode, 2, 'run refuses the same agent');
    assert.match(run.stderr, /yaml/);
  });
});
