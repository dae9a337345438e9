import { resolve } from 'node:path';
import type { AgentConfig } from '../agent/types.js';
import type { AgentObserver } from '../events/observer.js';
import type { ProviderSpec } from '../providers/create-provider.js';
import type { Provider } from '../providers/spec.js';
import { AuditLogger, type AuditLoggerOptions } from '../safety/audit/audit-logger.js';
import { FormatGuardrail, type FormatGuardrailOptions } from '../safety/guardrails/format-guardrail.js';
import type { Guardrail, GuardrailAction } from '../safety/guardrails/guardrail.js';
import { GuardrailsPipeline } from '../safety/guardrails/guardrails-pipeline.js';
import { LengthGuardrail, type LengthGuardrailOptions } from '../safety/guardrails/length-guardrail.js';
import { PIIGuardrail, type PIIGuardrailOptions } from '../safety/guardrails/pii-guardrail.js';
import { TopicGuardrail, type TopicGuardrailOptions } from '../safety/guardrails/topic-guardrail.js';
import { ToxicityGuardrail, type ToxicityGuardrailOptions } from '../safety/guardrails/toxicity-guardrail.js';
import type { PiiType } from '../safety/pii/pii-types.js';
import type { CoherenceConfig } from '../safety/safety-config.js';
import type { ScreeningOptions } from '../safety/screening/screening-extension.js';
import type { AgentFileConfig, GuardrailSettings } from './types.js';

/** Drops undefined values (exactOptionalPropertyTypes). */
function defined<T extends object>(value: { [K in keyof T]?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** One `guardrails:` entry as a Guardrail (the values were validated when the file was read). */
export function guardrailFromSettings(settings: GuardrailSettings): Guardrail {
  const base = defined<{ action?: GuardrailAction; name?: string }>({ action: settings.action, name: settings.name as string | undefined });
  const o = settings as Record<string, unknown>;
  switch (settings.type) {
    case 'topic':
      return new TopicGuardrail(defined<TopicGuardrailOptions>({ ...base, keywords: o.keywords as string[], replacement: o.replacement as string | undefined }));
    case 'pii': {
      const patterns = o.patterns as Record<string, string> | undefined;
      return new PIIGuardrail(
        defined<PIIGuardrailOptions>({
          ...base,
          entities: o.entities as PiiType[] | undefined,
          patterns: patterns === undefined ? undefined : Object.entries(patterns).map(([name, pattern]) => ({ name, pattern })),
        }),
      );
    }
    case 'toxicity':
      return new ToxicityGuardrail(
        defined<ToxicityGuardrailOptions>({ ...base, blocklist: o.blocklist as string[] | undefined, severe: o.severe as string[] | undefined, replaceDefaults: o.replaceDefaults as boolean | undefined, threshold: o.threshold as number | undefined }),
      );
    case 'format':
      return new FormatGuardrail(defined<FormatGuardrailOptions>({ ...base, json: o.json as boolean | undefined, requiredKeys: o.requiredKeys as string[] | undefined, maxLength: o.maxLength as number | undefined }));
    case 'length':
      return new LengthGuardrail(
        defined<LengthGuardrailOptions>({ ...base, minChars: o.minChars as number | undefined, maxChars: o.maxChars as number | undefined, minWords: o.minWords as number | undefined, maxWords: o.maxWords as number | undefined }),
      );
  }
}

/**
 * The safety parts of an AgentConfig built from a validated file: the guardrails pipeline,
 * screening options, the coherence check (its provider created from its spec) and the audit
 * logger (an observer).
 */
export async function safetyFromFile(
  config: AgentFileConfig,
  makeProvider: (spec: ProviderSpec) => Promise<Provider>,
): Promise<{ fields: Pick<AgentConfig, 'guardrails' | 'screening' | 'coherence'>; observers: AgentObserver[] }> {
  const fields: Pick<AgentConfig, 'guardrails' | 'screening' | 'coherence'> = {};
  const g = config.guardrails;
  if (g !== undefined) {
    fields.guardrails = new GuardrailsPipeline({
      input: (g.input ?? []).map(guardrailFromSettings),
      output: (g.output ?? []).map(guardrailFromSettings),
      toolArguments: (g.toolArguments ?? []).map(guardrailFromSettings),
      toolResult: (g.toolResult ?? []).map(guardrailFromSettings),
    });
  }
  const s = config.screening;
  if (s !== undefined) {
    const patterns = s.patterns === undefined ? undefined : Array.isArray(s.patterns) ? s.patterns : Object.entries(s.patterns).map(([name, pattern]) => ({ name, pattern }));
    fields.screening = defined<ScreeningOptions>({ allTools: s.allTools, tools: s.tools, patterns, noBuiltIns: s.noBuiltIns, placeholder: s.placeholder, decodeBase64: s.decodeBase64 });
  }
  const c = config.coherence;
  if (c !== undefined) {
    const provider = c.provider === undefined ? undefined : await makeProvider(c.provider);
    fields.coherence = defined<CoherenceConfig>({ enabled: c.enabled ?? true, provider, model: c.model, failClosed: c.failClosed, timeoutMs: c.timeoutMs, tools: c.tools });
  }
  const a = config.audit;
  const observers = a === undefined ? [] : [new AuditLogger(defined<AuditLoggerOptions>({ dir: resolve(config.baseDir, a.dir), privacy: a.privacy, rotateDaily: a.rotateDaily }))];
  return { fields, observers };
}
