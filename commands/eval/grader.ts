import { createProvider, type ProviderConfig } from '../../lib/providers/create-provider.js';
import { RecordingProvider } from '../../lib/providers/replay/recording-provider.js';
import { ReplayProvider } from '../../lib/providers/replay/replay-provider.js';
import type { Provider } from '../../lib/providers/spec.js';
import type { Grader } from '../../lib/evals/types.js';
import { UsageError } from '../../cli/usage-error.js';

/** `openai:gpt-4o-mini` → provider type and model. */
export function parseGraderSpec(spec: string): { type: string; model?: string } {
  const colon = spec.indexOf(':');
  if (colon === -1) return { type: spec };
  const type = spec.slice(0, colon);
  const model = spec.slice(colon + 1);
  if (type === '' || model === '') throw new UsageError(`grader "${spec}": write provider:model (openai:gpt-4o-mini) or a provider name`);
  return { type, model };
}

/** Where the judge's calls are recorded beside the agent's cassette: `x.jsonl` → `x.grader.jsonl`. */
export function graderCassettePath(cassette: string): string {
  return /\.jsonl$/i.test(cassette) ? cassette.replace(/\.jsonl$/i, '.grader.jsonl') : `${cassette}.grader.jsonl`;
}

/** Options of {@link graderResolver}. */
export interface GraderOptions {
  /** `--grader`: overrides every spec written in the suite. */
  override?: string;
  /** The suite's `grader`. */
  suiteDefault?: string;
  record?: string;
  replay?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `record`/`replay` are the judge's cassette itself (per-case directories), not the agent's cassette beside it. */
  exactPaths?: boolean;
}

/**
 * Resolves the judge for a spec written on an assertion or case (`--grader` wins, then the spec,
 * then the suite's): a real provider, wrapped to record its calls with `--record`, or the judge
 * cassette with `--replay`, so judged suites also run offline. Providers are created on first use.
 */
export function graderResolver(options: GraderOptions): (spec: string | undefined) => Promise<Grader | undefined> {
  let replay: ReplayProvider | undefined;
  let recorded: { spec: string; provider: Promise<Provider> } | undefined;
  const live = new Map<string, Promise<Provider>>();
  const cassetteOf = (path: string): string => (options.exactPaths === true ? path : graderCassettePath(path));
  return async (written) => {
    const spec = options.override ?? written ?? options.suiteDefault;
    if (spec === undefined) return undefined;
    const { type, model } = parseGraderSpec(spec);
    if (options.replay !== undefined) {
      replay ??= ReplayProvider.fromFile(cassetteOf(options.replay), { env: options.env });
      return { provider: replay, ...(model === undefined ? {} : { model }) };
    }
    if (options.record !== undefined) {
      if (recorded !== undefined && recorded.spec !== spec) throw new UsageError(`with --record, one grader records to ${cassetteOf(options.record)}: the suite uses ${recorded.spec} and ${spec} (pass --grader to use one)`);
      const path = cassetteOf(options.record);
      recorded ??= { spec, provider: createProvider({ type, ...(model === undefined ? {} : { model }) } as ProviderConfig).then((inner) => new RecordingProvider(inner, { path, env: options.env })) };
      return { provider: await recorded.provider, ...(model === undefined ? {} : { model }) };
    }
    let provider = live.get(spec);
    if (provider === undefined) {
      provider = createProvider({ type, ...(model === undefined ? {} : { model }) } as ProviderConfig);
      live.set(spec, provider);
    }
    return { provider: await provider, ...(model === undefined ? {} : { model }) };
  };
}
