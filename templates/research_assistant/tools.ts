/**
 * Research assistant tools: web search through the Tavily or Brave Search API, and fetching a web
 * page as readable text with SSRF guards (public addresses only, checked after DNS resolution and on
 * every redirect; size and time limits).
 *
 * Context switches (from `run(input, { context })`), for tests and trusted setups only:
 * `allowPrivate` (true, or a list of IP literals) lets fetch_url reach non-public addresses;
 * `fetchTimeoutMs` and `fetchMaxBytes` change its limits.
 */
import { tool, z } from 'agentlib';
import { decodeEntities, htmlTitle, htmlToText, safeFetch, type SafeFetchOptions } from 'agentlib/rag';
import { contextNumber, contextValue, envString } from '../_shared/context.js';

/** Bytes fetch_url downloads at most by default. */
export const DEFAULT_MAX_BYTES = 1_000_000;
/** Default time limit of fetch_url, redirects included. */
export const DEFAULT_FETCH_TIMEOUT_MS = 15_000;
/** Default time limit of a web_search API call. */
export const SEARCH_TIMEOUT_MS = 15_000;

function allowPrivateFrom(context: unknown): SafeFetchOptions['allowPrivate'] {
  const value = contextValue(context, 'allowPrivate');
  if (value === true) return true;
  if (Array.isArray(value)) return (value as unknown[]).filter((item): item is string => typeof item === 'string');
  return undefined;
}

function isTextual(contentType: string): boolean {
  return (
    contentType === '' ||
    contentType.startsWith('text/') ||
    /^application\/(?:json|xml|xhtml\+xml|rss\+xml|atom\+xml|ld\+json|javascript|x-yaml|yaml)$/.test(contentType) ||
    /\+(?:json|xml)$/.test(contentType)
  );
}

function decodeBody(body: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Fetches a web page and returns its readable text. */
export const fetchUrl = tool({
  name: 'fetch_url',
  description:
    'Fetch a public web page (http or https) and return its readable text: {url, status, content_type, title, text, ' +
    'truncated}. HTML is converted to plain text; other text formats are returned as they are; binary files are ' +
    'refused. Private and local network addresses are refused. Downloads stop at 1 MB and 15 seconds.',
  parameters: z.object({
    url: z.string().min(1).max(2048).describe('Absolute http(s) URL'),
    max_chars: z.number().int().min(500).max(100_000).default(20_000).describe('Characters of text to return at most. Default 20000'),
  }),
  execute: async ({ url, max_chars }, ctx) => {
    const response = await safeFetch(url, {
      signal: ctx.signal,
      allowPrivate: allowPrivateFrom(ctx.context),
      timeoutMs: contextNumber(ctx.context, 'fetchTimeoutMs') ?? DEFAULT_FETCH_TIMEOUT_MS,
      maxBytes: contextNumber(ctx.context, 'fetchMaxBytes') ?? DEFAULT_MAX_BYTES,
    });
    if (response.status >= 400) throw new Error(`HTTP ${response.status} from ${response.url}`);
    const sniffBinary = response.contentType === '' && response.body.subarray(0, 8000).includes(0);
    if (!isTextual(response.contentType) || sniffBinary) {
      throw new Error(`refused: ${response.url} is ${response.contentType || 'binary data'}, not a text or HTML page`);
    }
    const raw = decodeBody(response.body, response.charset);
    const isHtml = response.contentType.includes('html') || (response.contentType === '' && /^\s*<(?:!doctype html|html)\b/i.test(raw));
    const text = isHtml ? htmlToText(raw) : raw.trim();
    const cut = text.length > max_chars;
    return {
      url: response.url,
      status: response.status,
      content_type: response.contentType || null,
      title: isHtml ? (htmlTitle(raw) ?? null) : null,
      text: cut ? `${text.slice(0, max_chars)}\n[... text truncated at ${max_chars} characters ...]` : text,
      truncated: cut || response.truncated,
      ...(response.truncated ? { note: 'the download was cut at the size limit; the page is longer' } : {}),
      ...(response.redirects.length > 0 ? { redirected_from: response.redirects[0] } : {}),
    };
  },
});

/** One web search result. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  published?: string;
}

/** Which search API is configured, from the environment. */
export function searchProvider(): { provider: 'tavily' | 'brave'; key: string } {
  const tavily = envString('TAVILY_API_KEY');
  const brave = envString('BRAVE_API_KEY');
  const preferred = envString('AGENTLIB_SEARCH_PROVIDER')?.toLowerCase();
  if (preferred === 'brave' && brave !== undefined) return { provider: 'brave', key: brave };
  if (tavily !== undefined && preferred !== 'brave') return { provider: 'tavily', key: tavily };
  if (brave !== undefined) return { provider: 'brave', key: brave };
  if (tavily !== undefined) return { provider: 'tavily', key: tavily };
  throw new Error('web_search needs a search API key: set TAVILY_API_KEY (https://tavily.com) or BRAVE_API_KEY (https://brave.com/search/api/)');
}

function baseUrl(fallback: string): string {
  return (envString('AGENTLIB_SEARCH_BASE_URL') ?? fallback).replace(/\/+$/, '');
}

function clean(text: unknown): string {
  return typeof text === 'string' ? decodeEntities(text.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim() : '';
}

async function readJson(response: Response, provider: string): Promise<unknown> {
  const body = await response.text();
  if (!response.ok) {
    throw new Error(`${provider} search failed: HTTP ${response.status}${body ? ` ${body.slice(0, 300).replace(/\s+/g, ' ')}` : ''}`);
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new Error(`${provider} search returned invalid JSON`);
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

async function tavilySearch(key: string, query: string, limit: number, signal: AbortSignal): Promise<{ results: SearchResult[]; answer?: string }> {
  const response = await fetch(`${baseUrl('https://api.tavily.com')}/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, max_results: limit, search_depth: 'basic', include_answer: false, include_raw_content: false, include_images: false }),
    signal,
  });
  const data = asRecord(await readJson(response, 'Tavily'));
  const list = Array.isArray(data['results']) ? (data['results'] as unknown[]) : [];
  const results = list.slice(0, limit).map((entry) => {
    const item = asRecord(entry);
    const published = typeof item['published_date'] === 'string' ? item['published_date'] : undefined;
    return { title: clean(item['title']), url: typeof item['url'] === 'string' ? item['url'] : '', snippet: clean(item['content']).slice(0, 500), ...(published ? { published } : {}) };
  });
  return typeof data['answer'] === 'string' && data['answer'] !== '' ? { results, answer: data['answer'] } : { results };
}

async function braveSearch(key: string, query: string, limit: number, signal: AbortSignal): Promise<{ results: SearchResult[] }> {
  const url = new URL(`${baseUrl('https://api.search.brave.com')}/res/v1/web/search`);
  url.searchParams.set('q', query);
  url.searchParams.set('count', String(limit));
  const response = await fetch(url, { headers: { accept: 'application/json', 'x-subscription-token': key }, signal });
  const data = asRecord(await readJson(response, 'Brave'));
  const web = asRecord(data['web']);
  const list = Array.isArray(web['results']) ? (web['results'] as unknown[]) : [];
  return {
    results: list.slice(0, limit).map((entry) => {
      const item = asRecord(entry);
      const published = typeof item['page_age'] === 'string' ? item['page_age'] : typeof item['age'] === 'string' ? item['age'] : undefined;
      return { title: clean(item['title']), url: typeof item['url'] === 'string' ? item['url'] : '', snippet: clean(item['description']).slice(0, 500), ...(published ? { published } : {}) };
    }),
  };
}

/** Searches the web through Tavily (TAVILY_API_KEY) or Brave Search (BRAVE_API_KEY). */
export const webSearch = tool({
  name: 'web_search',
  description:
    'Search the web. Returns {provider, query, results: [{title, url, snippet, published?}]}. Use fetch_url on the most ' +
    'promising results to read them before relying on them; snippets can be outdated or incomplete.',
  parameters: z.object({
    query: z.string().min(1).max(400).describe('Search query, as you would type it into a search engine'),
    max_results: z.number().int().min(1).max(10).default(5).describe('Number of results (1-10). Default 5'),
  }),
  execute: async ({ query, max_results }, ctx) => {
    const { provider, key } = searchProvider();
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(SEARCH_TIMEOUT_MS)]);
    const found = provider === 'tavily' ? await tavilySearch(key, query, max_results, signal) : await braveSearch(key, query, max_results, signal);
    return { provider, query, ...found };
  },
});
