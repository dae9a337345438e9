import { ConfigurationError } from '../core/errors/configuration-error.js';
import { ConversationMemory, type ConversationMemoryOptions } from '../memory/conversation-memory.js';
import type { SessionBinding } from '../sessions/types.js';
import type { AgentConfig, CompressConfig, SummarizeConfig } from './types.js';
import type { AgentExtension } from './extension.js';
import { promptCompression } from '../memory/prompt-compression.js';
import { getModelInfo } from '../providers/models/registry.js';

const SUMMARIZE_KEYS: Readonly<Record<keyof Required<SummarizeConfig>, true>> = { onTrim: true, provider: true, model: true, maxTokens: true };

/** The `summarize` group with the spec's flat aliases folded in (the group wins). */
function summarizeSettings(config: AgentConfig): SummarizeConfig {
  const group = config.summarize ?? {};
  for (const key of Object.keys(group)) {
    if (!Object.hasOwn(SUMMARIZE_KEYS, key)) throw new ConfigurationError(`Unknown AgentConfig option "summarize.${key}" (it would be ignored); known: ${Object.keys(SUMMARIZE_KEYS).join(', ')}`, { key: `summarize.${key}` });
  }
  const settings: SummarizeConfig = {};
  const onTrim = group.onTrim ?? config.summarizeOnTrim;
  const provider = group.provider ?? config.summarizeProvider;
  const model = group.model ?? config.summarizeModel;
  const maxTokens = group.maxTokens ?? config.summarizeMaxTokens;
  if (onTrim !== undefined) settings.onTrim = onTrim;
  if (provider !== undefined) settings.provider = provider;
  if (model !== undefined) settings.model = model;
  if (maxTokens !== undefined) settings.maxTokens = maxTokens;
  return settings;
}

/**
 * The agent's ConversationMemory, or undefined when it keeps the whole conversation. `memory`
 * may be an instance (used as it is: summary settings belong on it then) or options; summary
 * settings alone imply a memory with the default limits.
 */
export function resolveMemory(config: AgentConfig): ConversationMemory | undefined {
  const memory = configuredMemory(config);
  // A session without a window: the whole stored conversation is the context.
  return memory ?? (resolveSession(config) === undefined ? undefined : new ConversationMemory({ maxMessages: Infinity }));
}

/** The session binding (`session`, or the flat `sessionStore` + `sessionId`), checked. */
export function resolveSession(config: AgentConfig): SessionBinding | undefined {
  const flat = config.sessionStore !== undefined || config.sessionId !== undefined;
  if (config.session !== undefined && flat) throw new ConfigurationError('AgentConfig: give `session` or `sessionStore` + `sessionId`, not both', { key: 'session' });
  const binding = config.session ?? (flat ? { store: config.sessionStore, id: config.sessionId } : undefined);
  if (binding === undefined) return undefined;
  if (typeof binding.store?.append !== 'function' || typeof binding.store.load !== 'function') throw new ConfigurationError('AgentConfig.session.store must be a SessionStore (see agentlib/sessions: openSessionStore)', { key: 'session.store' });
  if (typeof binding.id !== 'string') throw new ConfigurationError('AgentConfig.session.id must be a session id string', { key: 'session.id' });
  return binding as SessionBinding;
}

function configuredMemory(config: AgentConfig): ConversationMemory | undefined {
  const summarize = summarizeSettings(config);
  const hasSummarize = Object.keys(summarize).length > 0;
  if (config.memory instanceof ConversationMemory) {
    if (hasSummarize) throw new ConfigurationError('AgentConfig: summary settings go on the ConversationMemory passed as `memory` (here they would be ignored)', { key: 'summarize' });
    return config.memory;
  }
  if (config.memory === undefined && !hasSummarize) return undefined;
  const options: ConversationMemoryOptions = { ...config.memory };
  if (summarize.onTrim !== undefined) options.summarizeOnTrim = summarize.onTrim;
  if (summarize.provider !== undefined) options.summarizeProvider = summarize.provider;
  if (summarize.model !== undefined) options.summarizeModel = summarize.model;
  if (summarize.maxTokens !== undefined) options.summarizeMaxTokens = summarize.maxTokens;
  return new ConversationMemory(options);
}

const COMPRESS_KEYS: Readonly<Record<keyof Required<CompressConfig>, true>> = { threshold: true, keepRecent: true, contextWindow: true, maxChars: true };

/**
 * The prompt compression extension, or undefined when off: on with the `compress` group, or the
 * flat `compressContext: true` (`compressThreshold`, `compressKeepRecent` need one of them).
 */
export function resolveCompression(config: AgentConfig, model: string): AgentExtension | undefined {
  const group = config.compress;
  for (const key of Object.keys(group ?? {})) {
    if (!Object.hasOwn(COMPRESS_KEYS, key)) throw new ConfigurationError(`Unknown AgentConfig option "compress.${key}" (it would be ignored); known: ${Object.keys(COMPRESS_KEYS).join(', ')}`, { key: `compress.${key}` });
  }
  const flatSettings = config.compressThreshold !== undefined || config.compressKeepRecent !== undefined;
  const on = group !== undefined || config.compressContext === true;
  if (!on) {
    if (flatSettings) throw new ConfigurationError('AgentConfig: compressThreshold / compressKeepRecent need compressContext: true (or the compress group); they would be ignored', { key: 'compressContext' });
    return undefined;
  }
  const contextWindow = group?.contextWindow ?? getModelInfo(model)?.contextWindow;
  if (contextWindow === undefined) throw new ConfigurationError(`AgentConfig.compress: the context window of model "${model}" is unknown; set compress.contextWindow`, { key: 'compress.contextWindow' });
  const threshold = group?.threshold ?? config.compressThreshold;
  const keepRecent = group?.keepRecent ?? config.compressKeepRecent;
  return promptCompression({
    contextWindow,
    ...(threshold === undefined ? {} : { threshold }),
    ...(keepRecent === undefined ? {} : { keepRecent }),
    ...(group?.maxChars === undefined ? {} : { maxChars: group.maxChars }),
  });
}
