import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { chunkByHeadings, loadMarkdownDocs } from '../../../templates/_shared/markdown-docs.js';
import { DEFAULT_DOCS_DIR, getDocument, retrieve, searchDocuments } from '../../../templates/rag_chatbot/tools.js';
import { toolContext } from '../tool-context.js';

describe('search_documents', () => {
  const cases: [string, string][] = [
    ['How many weeks of parental leave do I get?', 'time-off-policy#parental-leave'],
    ['What is the meal per diem when travelling?', 'expenses-and-travel#meals-and-per-diem'],
    ['I lost my laptop, what do I do?', 'information-security#devices'],
    ['Can I work from another country for a few weeks?', 'remote-work#working-from-another-location'],
    ['How many PTO days carry over to next year?', 'time-off-policy#paid-time-off-pto'],
    ['What is the 401k match?', 'benefits-overview#retirement'],
    ['hotel limit in London', 'expenses-and-travel#booking-travel'],
    ['how long is the probation period', 'onboarding-guide#your-first-90-days'],
  ];
  for (const [query, source] of cases) {
    test(`retrieves ${source} first for "${query}"`, () => {
      assert.equal(retrieve(DEFAULT_DOCS_DIR, query, 4)[0]?.source, source);
    });
  }

  test('returns passages with citable sources, titles and section paths', async () => {
    const { results } = (await searchDocuments.invoke({ query: 'parental leave weeks', top_k: 2 }, toolContext(undefined))).raw as {
      results: { source: string; title: string; section: string; text: string }[];
    };
    assert.equal(results.length, 2);
    assert.deepEqual(results[0] && { source: results[0].source, title: results[0].title, section: results[0].section }, {
      source: 'time-off-policy#parental-leave',
      title: 'Time off and leave policy',
      section: 'Time off and leave policy > Parental leave',
    });
    assert.match(results[0]?.text ?? '', /20 weeks/);
  });

  test('reads another folder from the context', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentlib-docs-'));
    try {
      writeFileSync(join(dir, 'faq.md'), '# FAQ\n\n## Parking\n\nVisitors park on level -2.\n\n```md\n# not a heading\n```\n');
      const { results } = (await searchDocuments.invoke({ query: 'where do visitors park', top_k: 3 }, toolContext({ docsDir: dir }))).raw as { results: { source: string; text: string }[] };
      assert.equal(results[0]?.source, 'faq#parking');
      assert.match(results[0]?.text ?? '', /# not a heading/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('get_document', () => {
  test('returns a whole document with its section ids', async () => {
    const doc = (await getDocument.invoke({ id: 'remote-work' }, toolContext(undefined))).raw as { title: string; sections: string[]; content: string };
    assert.equal(doc.title, 'Remote and hybrid work');
    assert.ok(doc.sections.includes('remote-work#home-office-allowance'));
    assert.match(doc.content, /\$600/);
  });

  test('returns one section by source id', async () => {
    const section = (await getDocument.invoke({ id: 'expenses-and-travel#meals-and-per-diem' }, toolContext(undefined))).raw as { section: string; content: string };
    assert.equal(section.section, 'Expenses and business travel > Meals and per diem');
    assert.match(section.content, /\$75/);
    assert.doesNotMatch(section.content, /Navan/);
  });

  test('rejects unknown documents, sections and path tricks', async () => {
    await assert.rejects(getDocument.invoke({ id: 'missing' }, toolContext(undefined)), /no document with id "missing"/);
    await assert.rejects(getDocument.invoke({ id: 'remote-work#nope' }, toolContext(undefined)), /no section "nope" in remote-work; sections: remote-work#intro/);
    await assert.rejects(getDocument.invoke({ id: '../customer_support/fixtures/kb/orders' }, toolContext(undefined)), /no document/);
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
