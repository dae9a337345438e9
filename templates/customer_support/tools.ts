/**
 * Customer support tools for the fictional coffee-equipment shop "Kettle & Crema": search and read
 * help-center articles, look up an order, and open a ticket for a human agent. The knowledge base
 * is `context.kbDir` (default: fixtures/kb next to this file), orders come from `context.ordersFile`
 * (default: fixtures/kb/orders.json) and tickets are appended to `tickets.jsonl` in
 * `context.ticketsDir`, `AGENTLIB_TICKETS_DIR` or a folder in the OS temp directory.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tool, z } from 'agentlib';
import { bestSnippet, KeywordIndex } from 'agentlib/rag';
import { contextString, envString } from '../_shared/context.js';
import { DOC_ID_PATTERN, loadMarkdownDocs, type MarkdownDoc } from '../_shared/markdown-docs.js';

/** The bundled knowledge base folder. */
export const DEFAULT_KB_DIR = fileURLToPath(new URL('./fixtures/kb', import.meta.url));

/** Characters of an article get_article returns at most. */
export const MAX_ARTICLE_CHARS = 12_000;

function kbDir(context: unknown): string {
  return contextString(context, 'kbDir') ?? DEFAULT_KB_DIR;
}

function articleTags(doc: MarkdownDoc): string {
  const tags = doc.meta['tags'];
  return Array.isArray(tags) ? tags.join(' ') : (tags ?? '');
}

/** One search_kb hit. */
export interface KbHit {
  id: string;
  title: string;
  category: string | undefined;
  score: number;
  snippet: string;
}

/**
 * Ranks the articles of `dir` for `query` with BM25 over title (weight 3), tags (2) and body (1),
 * and returns the best `limit` with a snippet of the passage that matches best.
 */
export function searchKnowledgeBase(dir: string, query: string, limit: number): KbHit[] {
  const docs = loadMarkdownDocs(dir);
  const index = new KeywordIndex(docs, (doc) => [
    { text: doc.title, weight: 3 },
    { text: articleTags(doc), weight: 2 },
    { text: doc.body, weight: 1 },
  ]);
  return index.search(query, limit).map(({ item, score }) => ({
    id: item.id,
    title: item.title,
    category: typeof item.meta['category'] === 'string' ? item.meta['category'] : undefined,
    score,
    snippet: bestSnippet(item.body, query, 300),
  }));
}

/** Keyword search over the help-center articles. */
export const searchKb = tool({
  name: 'search_kb',
  description:
    'Search the Kettle & Crema help-center articles by keywords (e.g. "return espresso machine refund"). Returns the ' +
    'best matches, best first, as {id, title, category, score, snippet}. Read a whole article with get_article(id) ' +
    'before quoting policy details.',
  parameters: z.object({
    query: z.string().min(1).max(500).describe("Keywords from the customer's question"),
    top_k: z.number().int().min(1).max(10).default(3).describe('How many articles to return (1-10). Default 3'),
  }),
  execute: ({ query, top_k }, ctx) => {
    const hits = searchKnowledgeBase(kbDir(ctx.context), query, top_k);
    return hits.length > 0 ? hits : { results: [], note: 'No article matches; rephrase with other keywords or offer to create a ticket.' };
  },
});

/** Reads one help-center article by id. */
export const getArticle = tool({
  name: 'get_article',
  description: 'Read a full help-center article by its id (from search_kb), e.g. "returns-and-refunds". Returns {id, title, category, updated, content}.',
  parameters: z.object({ id: z.string().min(1).max(100).describe('Article id from search_kb') }),
  execute: ({ id }, ctx) => {
    const wanted = id.trim().toLowerCase().replace(/\.md$/, '');
    const docs = loadMarkdownDocs(kbDir(ctx.context));
    const doc = DOC_ID_PATTERN.test(wanted) ? docs.find((d) => d.id === wanted) : undefined;
    if (!doc) throw new Error(`no article with id "${id}"; known ids: ${docs.map((d) => d.id).join(', ')}`);
    const content = doc.body.length > MAX_ARTICLE_CHARS ? `${doc.body.slice(0, MAX_ARTICLE_CHARS)}\n[... article truncated ...]` : doc.body;
    return { id: doc.id, title: doc.title, category: doc.meta['category'] ?? null, updated: doc.meta['updated'] ?? null, content };
  },
});

/** An order as stored in orders.json. */
interface OrderRecord {
  order_id: string;
  email: string;
  [key: string]: unknown;
}

function loadOrders(context: unknown): OrderRecord[] {
  const file = contextString(context, 'ordersFile') ?? join(kbDir(context), 'orders.json');
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`orders file is not a JSON array: ${file}`);
  return (parsed as unknown[]).filter(
    (o): o is OrderRecord => typeof o === 'object' && o !== null && typeof (o as OrderRecord).order_id === 'string' && typeof (o as OrderRecord).email === 'string',
  );
}

/** Looks up an order by number, optionally checking the customer's email. */
export const lookupOrder = tool({
  name: 'lookup_order',
  description:
    'Look up an order by its number (like "KC-10234"): status, items, shipping method, carrier and tracking number, ' +
    'dates and total. Pass the email the customer gives you: when it does not match the order, the order is ' +
    'reported as not found.',
  parameters: z.object({
    order_id: z.string().min(3).max(32).regex(/^[A-Za-z0-9-]+$/, 'letters, digits and "-" only').describe('Order number, e.g. KC-10234'),
    email: z.string().max(254).optional().describe('Email address the customer used at checkout, to verify the order belongs to them'),
  }),
  execute: ({ order_id, email }, ctx) => {
    const wanted = order_id.trim().toUpperCase();
    const order = loadOrders(ctx.context).find((o) => o.order_id.toUpperCase() === wanted);
    if (!order || (email !== undefined && order.email.toLowerCase() !== email.trim().toLowerCase())) {
      return { found: false, order_id: wanted, note: 'No order with this number and email. Ask the customer to check the number (format KC-12345) and the email used at checkout.' };
    }
    return { found: true, ...order };
  },
});

/** Where tickets are written: `context.ticketsDir`, else AGENTLIB_TICKETS_DIR, else a folder in the OS temp directory. */
export function ticketsDir(context: unknown): string {
  return contextString(context, 'ticketsDir') ?? envString('AGENTLIB_TICKETS_DIR') ?? join(tmpdir(), 'agentlib-tickets');
}

/** Opens a support ticket for a human agent (appends one JSON line to tickets.jsonl). */
export const createTicket = tool({
  name: 'create_ticket',
  description:
    'Open a support ticket for the human support team, when the question cannot be solved from the help center or needs ' +
    'an action (refund exception, warranty claim, lost package trace, account deletion). Summarise the problem and what ' +
    'was already tried. Returns the ticket id to give to the customer.',
  parameters: z.object({
    subject: z.string().min(5).max(150).describe('One-line summary'),
    description: z.string().min(10).max(5000).describe('What the customer needs, relevant facts (order, dates) and what was already tried'),
    category: z.enum(['order', 'shipping', 'return', 'warranty', 'billing', 'account', 'subscription', 'other']).default('other'),
    priority: z.enum(['low', 'normal', 'high', 'urgent']).default('normal').describe('urgent only for safety issues or charges in error'),
    customer_email: z.email().optional().describe("The customer's email, if known"),
    order_id: z.string().max(32).regex(/^[A-Za-z0-9-]+$/).optional().describe('Related order number, if any'),
  }),
  execute: (args, ctx) => {
    const dir = ticketsDir(ctx.context);
    mkdirSync(dir, { recursive: true });
    const now = new Date();
    const ticket = {
      ticket_id: `TCK-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(3).toString('hex').toUpperCase()}`,
      created_at: now.toISOString(),
      status: 'open',
      run_id: ctx.runId,
      ...args,
    };
    appendFileSync(join(dir, 'tickets.jsonl'), `${JSON.stringify(ticket)}\n`, 'utf8');
    return { ticket_id: ticket.ticket_id, status: ticket.status, priority: ticket.priority, message: 'Ticket created; the support team replies by email within one business day.' };
  },
});
