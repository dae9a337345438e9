import { ANTHROPIC_MODELS } from './anthropic.js';
import { GEMINI_MODELS } from './gemini.js';
import { modelIdCandidates } from './model-id.js';
import { OLLAMA_MODELS } from './ollama.js';
import { OPENAI_MODELS } from './openai.js';
import type { ModelInfo, ModelProvider, ModelType } from './types.js';

interface Registry {
  byId: Map<string, ModelInfo>;
  byAlias: Map<string, string>;
  /** Memo of lookups (including misses), cleared whenever the registry changes. */
  resolved: Map<string, ModelInfo | undefined>;
}

let registry: Registry | undefined;

/** The registry, built on first use (nothing happens at import time). */
function table(): Registry {
  if (!registry) {
    registry = { byId: new Map(), byAlias: new Map(), resolved: new Map() };
    for (const info of [...OPENAI_MODELS, ...ANTHROPIC_MODELS, ...GEMINI_MODELS, ...OLLAMA_MODELS]) add(registry, info);
  }
  return registry;
}

function add(target: Registry, info: ModelInfo): void {
  target.resolved.clear();
  target.byId.set(info.id, info);
  for (const alias of info.aliases ?? []) target.byAlias.set(alias, info.id);
}

function assertValid(info: ModelInfo): void {
  const problems: string[] = [];
  if (typeof info.id !== 'string' || info.id.trim() === '') problems.push('id must be a non-empty string');
  if (typeof info.provider !== 'string' || info.provider === '') problems.push('provider must be a non-empty string');
  for (const key of ['promptPricePer1M', 'completionPricePer1M', 'contextWindow', 'maxOutputTokens'] as const) {
    const value = info[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) problems.push(`${key} must be a finite number >= 0`);
  }
  for (const key of ['cachedPromptPricePer1M', 'cacheWritePricePer1M'] as const) {
    const value = info[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) problems.push(`${key} must be a finite number >= 0 when given`);
  }
  if (problems.length > 0) throw new TypeError(`registerModel(${JSON.stringify(info.id)}): ${problems.join('; ')}`);
}

/**
 * Looks a model up: the exact id first, then aliases, then fallbacks (`models/` prefix, Ollama
 * tags, dated snapshot suffixes: `gpt-4o-2024-08-06` → `gpt-4o`). Undefined when unknown.
 */
export function getModelInfo(id: string): ModelInfo | undefined {
  const { byId, byAlias, resolved } = table();
  if (resolved.has(id)) return resolved.get(id);
  let found: ModelInfo | undefined;
  for (const candidate of modelIdCandidates(id)) {
    found = byId.get(candidate) ?? byId.get(byAlias.get(candidate) ?? '');
    if (found) break;
  }
  if (resolved.size >= 1000) resolved.clear();
  resolved.set(id, found);
  return found;
}

/**
 * Adds a model to the registry, or replaces the entry with the same id (to correct a price or
 * add a fine-tuned / self-hosted model). Returns the stored (frozen) entry.
 */
export function registerModel(info: ModelInfo): ModelInfo {
  assertValid(info);
  const stored: ModelInfo = Object.freeze({ ...info, ...(info.aliases ? { aliases: Object.freeze([...info.aliases]) } : {}) });
  add(table(), stored);
  return stored;
}

/** Removes a registered model (and its aliases). Returns whether it was present. */
export function unregisterModel(id: string): boolean {
  const { byId, byAlias, resolved } = table();
  const info = byId.get(id);
  if (!info) return false;
  resolved.clear();
  byId.delete(id);
  for (const [alias, target] of byAlias) if (target === id) byAlias.delete(alias);
  return true;
}

/** Filters for `listModels`. */
export interface ListModelsOptions {
  provider?: ModelProvider;
  type?: ModelType;
}

/** All registered models, optionally only one provider's and/or one type. */
export function listModels(options: ListModelsOptions = {}): ModelInfo[] {
  const provider = options.provider === 'google' ? 'gemini' : options.provider;
  return [...table().byId.values()].filter(
    (info) => (provider === undefined || info.provider === provider) && (options.type === undefined || info.type === options.type),
  );
}

/** Restores the built-in registry, dropping every `registerModel` change (for tests). */
export function resetModelRegistry(): void {
  registry = undefined;
}
