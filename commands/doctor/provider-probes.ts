import type { AgentFileConfig } from '../../lib/config/types.js';
import type { ProviderConfig } from '../../lib/providers/create-provider.js';
import { resolveAzureApiVersion, type AzureApiVersion } from '../../lib/providers/openai/azure-api-version.js';
import { checkResult, displayUrl, envValue, formatMs, type CheckResult } from './check.js';
import { providerEntries } from './config-file.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where Ollama listens by default (as lib/providers/ollama; not imported, to keep doctor light). */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
const DEFAULT_BASES = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
} as const;
const BASE_VARIABLES = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
  gemini: 'GOOGLE_GEMINI_BASE_URL',
  ollama: 'OLLAMA_HOST',
  azure: 'AZURE_OPENAI_ENDPOINT',
} as const;

/** One provider endpoint to probe with a cheap authenticated call (listing models). */
export interface ProbeTarget {
  id: string;
  title: string;
  provider: ProviderConfig['type'];
  /** The model-list endpoint, or undefined when the base URL is not a URL. */
  url: string;
  /** Headers with the key (never shown). */
  headers: Record<string, string>;
  /** Where the key comes from (for hints); undefined for key-less servers. */
  keyVariable?: string;
  /** Where the base URL comes from (for hints). */
  baseSource: string;
  /** The JSON field holding the model list. */
  listField: 'data' | 'models';
  /** Azure: the `api-version` sent (the one the adapter would use) and where it comes from. */
  apiVersion?: { version: string; source: string };
  required: boolean;
  /** A problem found before any request (no key, a bad URL): the probe fails without a request. */
  problem?: { detail: string; hint: string; reason: ProbeReason };
}

/** Why a probe failed, for `--json` (`data.reason`). */
export type ProbeReason = 'missing-key' | 'invalid-url' | 'http-status' | 'unreachable' | 'timeout' | 'cancelled';

/** `host` with a scheme and without a trailing slash (as the Ollama adapter normalises OLLAMA_HOST). */
export function normalizeOllamaHost(host: string): string {
  const trimmed = host.trim().replace(/\/+$/, '');
  if (trimmed.startsWith(':')) return `http://127.0.0.1${trimmed}`;
  return trimmed.includes('://') ? trimmed : `http://${trimmed}`;
}

function join(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

interface Candidate {
  provider: ProviderConfig['type'];
  entry?: ProviderConfig;
  configured: boolean;
}

function keyVariableFor(provider: ProviderConfig['type'], entry: ProviderConfig | undefined, env: Env): string | undefined {
  const fromConfig = entry?.apiKeyEnv ?? entry?.api_key_env;
  if (fromConfig !== undefined) return fromConfig;
  switch (provider) {
    case 'openai':
      return 'OPENAI_API_KEY';
    case 'anthropic':
      return 'ANTHROPIC_API_KEY';
    case 'azure':
      return 'AZURE_OPENAI_API_KEY';
    case 'gemini':
      return envValue(env, 'GEMINI_API_KEY') === undefined && envValue(env, 'GOOGLE_API_KEY') !== undefined ? 'GOOGLE_API_KEY' : 'GEMINI_API_KEY';
    default:
      return undefined;
  }
}

function apiVersionSource(source: AzureApiVersion['source']): string {
  if (source === 'explicit') return 'api_version in the agent file';
  return source === 'default' ? "the adapter's default" : source;
}

function target(candidate: Candidate, env: Env): ProbeTarget {
  const { provider, entry } = candidate;
  const configBase = entry?.baseURL ?? entry?.base_url;
  const envBase = provider === 'openai-compatible' ? undefined : envValue(env, BASE_VARIABLES[provider]);
  const baseSource = configBase !== undefined ? 'base_url in the agent file' : provider === 'openai-compatible' ? 'base_url' : BASE_VARIABLES[provider];
  const label = entry?.name ?? provider;
  const common = { id: `provider:${label}`, title: provider === 'ollama' ? 'Ollama' : `Provider ${label}`, provider, baseSource, required: candidate.configured };
  if (provider === 'ollama') {
    const host = normalizeOllamaHost(configBase ?? envBase ?? DEFAULT_OLLAMA_HOST);
    return { ...common, url: join(host, '/api/tags'), headers: {}, listField: 'models' };
  }
  const base = configBase ?? envBase ?? (provider === 'openai-compatible' || provider === 'azure' ? '' : DEFAULT_BASES[provider]);
  const keyVariable = keyVariableFor(provider, entry, env);
  const key = keyVariable === undefined ? undefined : envValue(env, keyVariable);
  // The OpenAI adapter (and openai-compatible) accept a key-less local server when a base URL is set.
  const keyOptional = provider === 'openai-compatible' ? entry?.apiKeyEnv === undefined && entry?.api_key_env === undefined : provider === 'openai' && base !== DEFAULT_BASES.openai;
  const result: ProbeTarget = { ...common, url: '', headers: {}, listField: 'data', ...(keyVariable === undefined ? {} : { keyVariable }) };
  switch (provider) {
    case 'anthropic':
      result.url = join(base, '/v1/models');
      if (key !== undefined) result.headers = { 'x-api-key': key, 'anthropic-version': '2023-06-01' };
      break;
    case 'azure': {
      // The resource's model list: {endpoint}/openai/models?api-version=…, key in the api-key header.
      const root = base.replace(/\/+$/, '').replace(/\/openai$/, '');
      const { version, source } = resolveAzureApiVersion(entry?.apiVersion ?? entry?.api_version, env);
      result.apiVersion = { version, source: apiVersionSource(source) };
      result.url = root === '' ? '' : `${root}/openai/models?api-version=${encodeURIComponent(version)}`;
      if (key !== undefined) result.headers = { 'api-key': key };
      break;
    }
    case 'gemini':
      result.url = join(base, '/v1beta/models');
      result.listField = 'models';
      if (key !== undefined) result.headers = { 'x-goog-api-key': key };
      break;
    default:
      result.url = join(base, '/models');
      if (key !== undefined) result.headers = { authorization: `Bearer ${key}` };
  }
  if (key === undefined && !keyOptional) {
    const variable = provider === 'gemini' && entry?.apiKeyEnv === undefined && entry?.api_key_env === undefined ? 'GEMINI_API_KEY or GOOGLE_API_KEY' : (keyVariable ?? 'the key variable');
    result.problem = { detail: `no API key: ${variable} is not set`, hint: `set ${variable}`, reason: 'missing-key' };
  }
  return result;
}

/**
 * The providers to probe: each whose key is set in the environment (Azure OpenAI when
 * AZURE_OPENAI_API_KEY is, at AZURE_OPENAI_ENDPOINT), each named by the agent file (required), and
 * Ollama (required only when OLLAMA_HOST is set or the file names it).
 */
export function probeTargets(env: Env, config?: AgentFileConfig): ProbeTarget[] {
  const candidates: Candidate[] = [];
  const entries = providerEntries(config?.provider);
  for (const entry of entries) candidates.push({ provider: entry.type, entry, configured: true });
  const named = new Set(entries.map((entry) => entry.type));
  if (!named.has('openai') && envValue(env, 'OPENAI_API_KEY') !== undefined) candidates.push({ provider: 'openai', configured: true });
  if (!named.has('anthropic') && envValue(env, 'ANTHROPIC_API_KEY') !== undefined) candidates.push({ provider: 'anthropic', configured: true });
  if (!named.has('gemini') && (envValue(env, 'GEMINI_API_KEY') ?? envValue(env, 'GOOGLE_API_KEY')) !== undefined) candidates.push({ provider: 'gemini', configured: true });
  if (!named.has('azure') && envValue(env, 'AZURE_OPENAI_API_KEY') !== undefined) candidates.push({ provider: 'azure', configured: true });
  if (!named.has('ollama')) candidates.push({ provider: 'ollama', configured: envValue(env, 'OLLAMA_HOST') !== undefined });
  const targets: ProbeTarget[] = [];
  const seen = new Map<string, number>();
  for (const candidate of candidates) {
    const next = target(candidate, env);
    // One probe per endpoint and key; a repeated label gets its position (openai#2).
    if (targets.some((t) => t.url === next.url && t.keyVariable === next.keyVariable)) continue;
    const count = (seen.get(next.id) ?? 0) + 1;
    seen.set(next.id, count);
    if (count > 1) {
      next.id = `${next.id}#${count}`;
      next.title = `${next.title}#${count}`;
    }
    targets.push(next);
  }
  return targets;
}

function errorCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (cause?.message === 'bad port') return 'port blocked by fetch';
  if (typeof cause?.message === 'string') return cause.message;
  // Not the message: it may quote the request.
  return error instanceof Error ? error.name : undefined;
}

function countModels(text: string, field: 'data' | 'models'): number | undefined {
  try {
    const list = (JSON.parse(text) as Record<string, unknown>)[field];
    return Array.isArray(list) ? list.length : undefined;
  } catch {
    return undefined;
  }
}

function keyHint(t: ProbeTarget): string {
  if (t.keyVariable === undefined) return `the server at ${t.baseSource} requires an API key: set api_key_env in the agent file`;
  return `key rejected: check ${t.keyVariable}`;
}

/** Probes one provider: GET its model list with the key, bounded by `timeoutMs`. */
export async function probeProvider(t: ProbeTarget, options: { timeoutMs: number; signal?: AbortSignal; offline?: boolean }): Promise<CheckResult> {
  const base = { id: t.id, title: t.title, required: t.required };
  if (t.problem !== undefined) return checkResult({ ...base, status: 'fail', detail: t.problem.detail, hint: t.problem.hint, data: { provider: t.provider, reason: t.problem.reason } });
  let url: URL;
  try {
    url = new URL(t.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
  } catch {
    return checkResult({ ...base, status: 'fail', detail: `invalid base URL (${t.baseSource})`, hint: `set ${t.baseSource} to an http(s) URL`, data: { provider: t.provider, reason: 'invalid-url' } });
  }
  const shown = displayUrl(url);
  const data: Record<string, unknown> = { provider: t.provider, url: shown };
  if (t.apiVersion !== undefined) data.apiVersion = t.apiVersion.version;
  if (options.offline === true) return checkResult({ ...base, status: 'skip', detail: `not probed (--offline): ${shown}`, data });
  const unconfiguredOllama = t.provider === 'ollama' && !t.required;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const headers: Record<string, string> = { accept: 'application/json', ...t.headers };
  // fetch refuses URLs with credentials (and its error would show them): send them as Basic auth.
  if (url.username !== '' || url.password !== '') {
    headers.authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  try {
    const response = await fetch(url, { headers, signal, redirect: 'manual' });
    const text = await response.text().catch(() => '');
    const latencyMs = elapsed();
    Object.assign(data, { httpStatus: response.status, latencyMs });
    if (response.ok) {
      const models = countModels(text, t.listField);
      if (models !== undefined) data.models = models;
      const count = models === undefined ? '' : `, ${models} model${models === 1 ? '' : 's'}`;
      return checkResult({ ...base, status: 'ok', detail: `HTTP ${response.status} in ${formatMs(latencyMs)}${count} (${shown})`, data });
    }
    data.reason = 'http-status';
    const detail = `HTTP ${response.status} in ${formatMs(latencyMs)} (${shown})`;
    if (unconfiguredOllama) return checkResult({ ...base, status: 'skip', detail: `${detail}; not Ollama? (not configured)`, data });
    if (response.status === 401 || response.status === 403) return checkResult({ ...base, status: 'fail', detail, hint: keyHint(t), data });
    if (response.status === 429) return checkResult({ ...base, status: 'warn', detail, hint: 'rate limited or out of quota: the key was accepted, but calls may fail', data });
    // Azure refuses an api-version it does not serve with a 404 ("Resource not found") or a 400.
    const version = t.apiVersion === undefined ? '' : ` and the api-version (${t.apiVersion.version}, ${t.apiVersion.source})`;
    if (response.status === 404) return checkResult({ ...base, status: 'fail', detail, hint: `no model list at this URL: check ${t.baseSource}${version}`, data });
    if (response.status >= 500) return checkResult({ ...base, status: 'fail', detail, hint: 'the provider reported a server error; try again later', data });
    return checkResult({ ...base, status: 'fail', detail, hint: `unexpected answer: check ${t.baseSource}${version}`, data });
  } catch (error) {
    data.latencyMs = elapsed();
    if (options.signal?.aborted === true && !timeout.aborted) {
      return checkResult({ ...base, status: 'skip', detail: 'cancelled', data: { ...data, reason: 'cancelled' } });
    }
    const timedOut = timeout.aborted;
    data.reason = timedOut ? 'timeout' : 'unreachable';
    const why = timedOut ? `no answer within ${formatMs(options.timeoutMs)}` : (errorCode(error) ?? 'connection failed');
    if (unconfiguredOllama) {
      return checkResult({ ...base, status: 'skip', detail: `not running at ${shown} (${why}; not configured)`, hint: 'to use local models, start `ollama serve` or set OLLAMA_HOST', data });
    }
    return checkResult({
      ...base,
      status: 'fail',
      detail: `cannot reach ${url.host} (${why})`,
      hint: `cannot reach ${url.host}: check the network, a proxy or firewall, and ${t.baseSource}`,
      data,
    });
  }
}

/** Probes every target in parallel (each bounded by `timeoutMs`, so all of them are too). */
export async function checkProviders(targets: readonly ProbeTarget[], options: { timeoutMs: number; signal?: AbortSignal; offline?: boolean }): Promise<CheckResult[]> {
  return Promise.all(targets.map((t) => probeProvider(t, options)));
}
