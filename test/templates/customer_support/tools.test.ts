import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTicket, DEFAULT_KB_DIR, getArticle, lookupOrder, searchKb, searchKnowledgeBase } from '../../../templates/customer_support/tools.js';
import { toolContext } from '../tool-context.js';

describe('search_kb', () => {
  const cases: [string, string][] = [
    ['How do I return my espresso machine and get my money back?', 'returns-and-refunds'],
    ['my machine shows an E3 error and an amber light', 'descaling-your-espresso-machine'],
    ['where is my package? I need the tracking number', 'tracking-your-order'],
    ["the grinder won't start", 'grinder-troubleshooting'],
    ['I want to cancel my order', 'changing-or-cancelling-an-order'],
    ['skip the next coffee delivery', 'managing-your-subscription'],
    ['I forgot my password', 'account-and-password'],
    ['the kettle arrived broken', 'damaged-missing-or-late-packages'],
    ['international shipping and customs duties', 'shipping-and-delivery'],
    ['my card was declined at checkout', 'payment-methods-and-billing'],
    ['warranty claim for a broken pump', 'espresso-machine-warranty'],
  ];
  for (const [query, expected] of cases) {
    test(`ranks ${expected} first for "${query}"`, () => {
      assert.equal(searchKnowledgeBase(DEFAULT_KB_DIR, query, 3)[0]?.id, expected);
    });
  }

  test('returns top-k hits with ids, titles and a matching snippet', async () => {
    const hits = (await searchKb.invoke({ query: 'espresso machine E3 error descaling', top_k: 2 }, toolContext(undefined))).raw as { id: string; title: string; snippet: string; score: number }[];
    assert.equal(hits.length, 2);
    assert.equal(hits[0]?.title, 'Descaling your espresso machine');
    assert.match(hits[0]?.snippet ?? '', /E3/);
    assert.ok((hits[0]?.score ?? 0) > (hits[1]?.score ?? 0));
  });

  test('says so when nothing matches', async () => {
    const result = (await searchKb.invoke({ query: 'zebra quantum', top_k: 3 }, toolContext(undefined))).raw as { results: unknown[]; note: string };
    assert.deepEqual(result.results, []);
    assert.match(result.note, /No article/);
  });
});

describe('get_article', () => {
  test('returns the article body and metadata', async () => {
    const article = (await getArticle.invoke({ id: 'returns-and-refunds' }, toolContext(undefined))).raw as { title: string; category: string; content: string };
    assert.equal(article.title, 'Returns and refunds policy');
    assert.equal(article.category, 'Returns & refunds');
    assert.match(article.content, /30 days of delivery/);
    assert.doesNotMatch(article.content, /^---/);
  });

  test('rejects unknown ids and path tricks', async () => {
    await assert.rejects(getArticle.invoke({ id: 'nope' }, toolContext(undefined)), /no article with id "nope"; known ids: account-and-password/);
    await assert.rejects(getArticle.invoke({ id: '../../../package' }, toolContext(undefined)), /no article/);
    await assert.rejects(getArticle.invoke({ id: 'orders' }, toolContext(undefined)), /no article/);
  });
});

describe('lookup_order', () => {
  test('finds an order (case-insensitive id) and checks the email when given', async () => {
    const found = (await lookupOrder.invoke({ order_id: 'kc-10234' }, toolContext(undefined))).raw as { found: boolean; status: string; shipping: { tracking: string } };
    assert.equal(found.found, true);
    assert.equal(found.status, 'shipped');
    assert.equal(found.shipping.tracking, '1Z84F2W10378229087');
    const verified = (await lookupOrder.invoke({ order_id: 'KC-10234', email: 'Daniel.Okafor@example.com' }, toolContext(undefined))).raw as { found: boolean };
    assert.equal(verified.found, true);
    const wrongEmail = (await lookupOrder.invoke({ order_id: 'KC-10234', email: 'someone@example.com' }, toolContext(undefined))).raw as { found: boolean; status?: string };
    assert.equal(wrongEmail.found, false);
    assert.equal(wrongEmail.status, undefined);
  });

  test('reports unknown orders and validates the id format', async () => {
    const missing = (await lookupOrder.invoke({ order_id: 'KC-99999' }, toolContext(undefined))).raw as { found: boolean };
    assert.equal(missing.found, false);
    const invalid = await lookupOrder.validateArgs({ order_id: '../etc/passwd' });
    assert.equal(invalid.ok, false);
  });
});

describe('create_ticket', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentlib-tickets-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('appends tickets as JSON lines in the context directory', async () => {
    const args = await createTicket.validateArgs({
      subject: 'Package lost in transit',
      description: 'Order KC-10227 has not moved since 2024-10-27 in Salt Lake City.',
      category: 'shipping',
      priority: 'high',
      customer_email: 'li.wei@example.com',
      order_id: 'KC-10227',
    });
    assert.ok(args.ok);
    const first = (await createTicket.invoke(args.value, toolContext({ ticketsDir: dir }))).raw as { ticket_id: string; status: string };
    const second = (await createTicket.invoke(args.value, toolContext({ ticketsDir: dir }))).raw as { ticket_id: string };
    assert.match(first.ticket_id, /^TCK-\d{8}-[0-9A-F]{6}$/);
    assert.notEqual(first.ticket_id, second.ticket_id);
    const lines = readFileSync(join(dir, 'tickets.jsonl'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 2);
    const stored = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    assert.equal(stored['ticket_id'], first.ticket_id);
    assert.equal(stored['order_id'], 'KC-10227');
    assert.equal(stored['priority'], 'high');
    assert.equal(stored['status'], 'open');
  });

  test('validates the arguments (email format, priority)', async () => {
    assert.equal((await createTicket.validateArgs({ subject: 'Help me', description: 'Something broke here', customer_email: 'not-an-email' })).ok, false);
    assert.equal((await createTicket.validateArgs({ subject: 'Help me', description: 'Something broke here', priority: 'critical' })).ok, false);
  });
});
