import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Tool } from '../../../lib/tools/types.js';
import { loadTemplate } from '../../../lib/config/templates.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { ensureCliBuilt } from '../../support/cli-build.js';
import { chunkByHeadings, loadMarkdownDocs } from '../../../templates/_shared/markdown-docs.js';
import { DEFAULT_DOCS_DIR, documentId, getDocument } from '../../../templates/rag_chatbot/tools.js';
import { toolContext } from '../tool-context.js';

describe('search_documents (retrieval: over the shipped index.db)', () => {
  let search: Tool;
  before(async () => {
    ensureCliBuilt(); // tools.ts imports 'agentlib' (the built package)
    const agent = await loadTemplate('rag_chatbot', { provider: new ScriptedProvider() });
    const found = agent.tools.find((t) => t.name === 'search_documents');
    assert.ok(found, 'agent.yaml retrieval: adds search_documents');
    search = found;
  });

  const cases: [string, string][] = [
    ['How many weeks of parental leave do I get?', 'fixtures/docs/time-off-policy.md'],
    ['What is the meal per diem when travelling?', 'fixtures/docs/expenses-and-travel.md'],
    ['I lost my laptop, what do I do?', 'fixtures/docs/information-security.md'],
    ['Can I work from another country for a few weeks?', 'fixtures/docs/remote-work.md'],
    ['How many PTO days carry over to next year?', 'fixtures/docs/time-off-policy.md'],
    ['What is the 401k match?', 'fixtures/docs/benefits-overview.md'],
    ['hotel limit in London', 'fixtures/docs/expenses-and-travel.md'],
    ['how long is the probation period', 'fixtures/docs/onboarding-guide.md'],
  ];
  for (const [query, source] of cases) {
    // the passages the model sees (top_k 3): a lexical embedder + BM25 ranks the right document first
    // for 7 of these 8 ("lost my laptop" puts the onboarding guide's laptop passages first)
    test(`returns a passage of ${source} for "${query}"`, async () => {
      const { results } = (await search.invoke({ query }, toolContext(undefined))).raw as { results: { source: string }[] };
      assert.ok(results.some((result) => result.source === source), JSON.stringify(results.map((result) => result.source)));
    });
  }

  test('returns top_k passages (3 by default) with the indexed source to cite and the document title', async () => {
    const { results, note } = (await search.invoke({ query: 'parental leave weeks' }, toolContext(undefined))).raw as {
      results: { source: string; title?: string; text: string }[];
      note: string;
    };
    assert.equal(results.length, 3);
    assert.equal(results[0]?.source, 'fixtures/docs/time-off-policy.md');
    assert.equal(results[0]?.title, 'Time off and leave policy');
    assert.match(results[0]?.text ?? '', /20 weeks/);
    assert.match(note, /\[fixtures\/docs\/time-off-policy\.md\]/);
    const two = (await search.invoke({ query: 'parental leave weeks', top_k: 2 }, toolContext(undefined))).raw as { results: unknown[] };
    assert.equal(two.results.length, 2);
  });
});

describe('get_document', () => {
  test('returns a whole document with its section ids', async () => {
    const doc = (await getDocument.invoke({ id: 'remote-work' }, toolContext(undefined))).raw as { title: string; sections: string[]; content: string };
    assert.equal(doc.title, 'Remote and hybrid work');
    assert.ok(doc.sections.includes('remote-work#home-office-allowance'));
    assert.match(doc.content, /\$600/);
  });

  test('reads the document a search result cites (its source), and returns that source', async () => {
    const doc = (await getDocument.invoke({ id: 'fixtures/docs/remote-work.md' }, toolContext(undefined))).raw as { id: string; source: string; content: string };
    assert.deepEqual({ id: doc.id, source: doc.source }, { id: 'remote-work', source: 'fixtures/docs/remote-work.md' });
    assert.match(doc.content, /\$600/);
    assert.equal(documentId('remote-work.md'), 'remote-work');
    assert.equal(documentId('other/remote-work.md'), undefined);
  });

  test('returns one section by source id', async () => {
    const section = (await getDocument.invoke({ id: 'expenses-and-travel#meals-and-per-diem' }, toolContext(undefined))).raw as { section: string; content: string };
    assert.equal(section.section, 'Expenses and business travel > Meals and per diem');
    assert.match(section.content, /\$75/);
    assert.doesNotMatch(section.content, /Navan/);
  });

  test('rejects unknown documents, sections and path tricks', async () => {
    await assert.rejects(getDocument.invoke({ id: 'missing' }, toolContext(undefined)), /no document "missing"; known: fixtures\/docs\/benefits-overview\.md/);
    await assert.rejects(getDocument.invoke({ id: 'remote-work#nope' }, toolContext(undefined)), /no section "nope" in remote-work; sections: remote-work#intro/);
    await assert.rejects(getDocument.invoke({ id: '../customer_support/fixtures/kb/orders' }, toolContext(undefined)), /no document/);
    await assert.rejects(getDocument.invoke({ id: 'fixtures/docs/../../tools.ts' }, toolContext(undefined)), /no document/);
  });
});

describe('chunkByHeadings', () => {
  test('keeps heading paths and numbers repeated section slugs', () => {
    const [doc] = loadMarkdownDocs(DEFAULT_DOCS_DIR).filter((d) => d.id === 'time-off-policy');
    assert.ok(doc);
    const chunks = chunkByHeadings(doc);
    assert.deepEqual(
      chunks.map((c) => c.id),
      ['time-off-policy#intro', 'time-off-policy#paid-time-off-pto', 'time-off-policy#public-holidays', 'time-off-policy#sick-leave', 'time-off-policy#parental-leave', 'time-off-policy#sabbatical'],
    );
    const repeated = chunkByHeadings({ id: 'x', title: 'X', meta: {}, body: '# X\n\n## Notes\n\na\n\n## Notes\n\nb', file: 'x.md' });
    assert.deepEqual(
      repeated.map((c) => c.id),
      ['x#notes', 'x#notes-2'],
    );
  });
});
