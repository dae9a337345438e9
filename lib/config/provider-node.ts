import { closestMatch } from '../core/suggest.js';
import { PROVIDER_TYPES, type ProviderConfig, type ProviderSpec, type ProviderType } from '../providers/create-provider.js';
import { childPath, deref, describeNode, report, type ReadContext } from './read-context.js';
import { readMapping } from './read-mapping.js';
import { bool, num, oneOf, str, type FieldTable } from './readers.js';

/** Keys of a provider object (`provider: { type: openai, model: gpt-4o-mini }`). */
export const PROVIDER_FIELDS: FieldTable = {
  type: { read: oneOf(PROVIDER_TYPES), type: PROVIDER_TYPES.join(' | '), required: true, description: 'Which provider adapter to use.' },
  model: { read: str({ nonEmpty: true }), type: 'string', description: 'Model of this provider (each fallback entry may have its own).' },
  base_url: {
    read: str({ nonEmpty: true }),
    type: 'string (URL)',
    camel: 'baseURL',
    description: 'API base URL (required for openai-compatible; the Ollama host; the Azure resource endpoint, default AZURE_OPENAI_ENDPOINT).',
  },
  api_key_env: {
    read: str({ nonEmpty: true }),
    type: 'string',
    description: 'Name of the environment variable holding the API key (keys never go in the file).',
  },
  timeout_ms: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '600000', description: 'Total time one provider call may take, in milliseconds (a whole stream included).' },
  first_byte_timeout_ms: {
    read: num({ integer: true, min: 0 }),
    type: 'integer ≥ 0',
    default: '60000',
    description: 'Streamed calls: the longest wait for the first byte of the reply, in milliseconds (0: none). `--timeout` overrides it.',
  },
  idle_timeout_ms: {
    read: num({ integer: true, min: 0 }),
    type: 'integer ≥ 0',
    default: '60000',
    description: 'Streamed calls: the longest silence between two pieces of the reply, in milliseconds (0: none). `--timeout` overrides it.',
  },
  name: { read: str({ nonEmpty: true }), type: 'string', description: 'Label of a fallback entry in events and `providerUsed`; the provider name of openai-compatible. Refused elsewhere (it would be ignored).' },
  deployment: { read: str({ nonEmpty: true }), type: 'string', description: 'azure: the deployment called when no model is named (default: `model`).' },
  api_version: { read: str({ nonEmpty: true }), type: 'string', description: 'azure: the `api-version` query parameter (default AZURE_OPENAI_API_VERSION, else OPENAI_API_VERSION, else 2025-04-01-preview).' },
  reasoning_model: {
    read: bool(),
    type: 'boolean',
    description: 'azure: the deployments serve a reasoning model (max_completion_tokens, no temperature); default guessed from the deployment name.',
  },
};

/** Keys only the `azure` provider takes, with their key in the result. */
const AZURE_ONLY = { deployment: 'deployment', api_version: 'apiVersion', reasoning_model: 'reasoningModel' } as const;

function readOne(ctx: ReadContext, node: unknown, path: string): ProviderType | ProviderConfig | undefined {
  const target = deref(ctx, node);
  if (ctx.yaml.isScalar(target)) {
    const name = str()(ctx, node, path);
    if (name === undefined) return undefined;
    if (name === 'azure') {
      report(ctx, node, path, 'provider "azure" needs "deployment": write it as a mapping', { hint: '{ type: azure, deployment: <name>, base_url: https://<resource>.openai.azure.com }' });
      return undefined;
    }
    if ((PROVIDER_TYPES as readonly string[]).includes(name)) return name as ProviderType;
    report(ctx, node, path, `unknown provider "${name}" (known: ${PROVIDER_TYPES.join(', ')})`, { suggestion: closestMatch(name, PROVIDER_TYPES) });
    return undefined;
  }
  if (ctx.yaml.isMap(target)) {
    const before = ctx.issues.length;
    const config = readMapping(ctx, node, path, PROVIDER_FIELDS) as Partial<ProviderConfig> | undefined;
    if (config === undefined || ctx.issues.length > before || config.type === undefined) return undefined;
    if (config.type === 'openai-compatible') {
      for (const key of ['base_url', 'model'] as const) {
        if (config[key === 'base_url' ? 'baseURL' : 'model'] === undefined) {
          report(ctx, node, childPath(path, key), `provider "openai-compatible" needs "${key}"`);
          return undefined;
        }
      }
    }
    if (config.type === 'azure') {
      if (config.deployment === undefined && config.model === undefined) {
        report(ctx, node, childPath(path, 'deployment'), 'provider "azure" needs "deployment" (or "model": the deployment name)');
        return undefined;
      }
    } else {
      const stray = (Object.keys(AZURE_ONLY) as (keyof typeof AZURE_ONLY)[]).find((key) => config[AZURE_ONLY[key]] !== undefined);
      if (stray !== undefined) {
        report(ctx, node, childPath(path, stray), `"${stray}" is only for provider "azure" (this one is "${config.type}")`);
        return undefined;
      }
    }
    return config as ProviderConfig;
  }
  report(ctx, node, path, `"${path}" must be a provider name, a mapping with "type", or a list of them; got ${describeNode(ctx, node)}`);
  return undefined;
}

/**
 * Reads `provider:`: a name (`openai`), an object (`type`, `model`, `base_url`, `api_key_env`,
 * `timeout_ms`, `first_byte_timeout_ms`, `idle_timeout_ms`, `name`; for `azure` also `deployment`, `api_version`, `reasoning_model`) or a list of those (a fallback chain, in priority order). The result is
 * what `createProvider` takes.
 */
export function readProvider(ctx: ReadContext, node: unknown, path: string): ProviderSpec | undefined {
  const target = deref(ctx, node);
  if (!ctx.yaml.isSeq(target)) return unlabelled(ctx, node, path, readOne(ctx, node, path));
  if (target.items.length === 0) {
    report(ctx, node, path, `"${path}" (a fallback chain) needs at least one provider`);
    return undefined;
  }
  if (target.items.length === 1) {
    const only = unlabelled(ctx, target.items[0], childPath(path, 0), readOne(ctx, target.items[0], childPath(path, 0)));
    return only === undefined ? undefined : [only];
  }
  const entries = target.items.map((item, i) => readOne(ctx, item, childPath(path, i)));
  return entries.every((entry) => entry !== undefined) ? (entries) : undefined;
}

/**
 * `name` labels the entries of a fallback chain (two or more) and names an openai-compatible
 * provider; on any other single provider nothing would read it, so it is refused.
 */
function unlabelled(ctx: ReadContext, node: unknown, path: string, spec: ProviderType | ProviderConfig | undefined): ProviderType | ProviderConfig | undefined {
  if (typeof spec !== 'object' || spec.name === undefined || spec.type === 'openai-compatible') return spec;
  const target = deref(ctx, node);
  const nameNode = ctx.yaml.isMap(target) ? target.items.find((pair) => ctx.yaml.isScalar(pair.key) && pair.key.value === 'name')?.key : undefined;
  report(ctx, nameNode ?? node, childPath(path, 'name'), `"name" would be ignored on a single "${spec.type}" provider: it labels the entries of a fallback chain (a list of two or more) and names an openai-compatible provider`, {
    hint: 'remove it, or list a fallback provider after this one',
  });
  return undefined;
}
