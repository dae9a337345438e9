import { isDeepStrictEqual } from 'node:util';
import { resolve } from 'node:path';
import { UsageError } from '../../cli/usage-error.js';
import type { LoadGraphOptions } from '../../lib/graph/yaml/load-graph.js';
import { createProvider, type ProviderSpec } from '../../lib/providers/create-provider.js';
import { RecordingProvider } from '../../lib/providers/replay/recording-provider.js';
import { ReplayProvider } from '../../lib/providers/replay/replay-provider.js';
import type { EmbedRequest, EmbedResponse, Provider, ProviderCapabilities, ProviderRequest, ProviderResponse, StreamPart } from '../../lib/providers/spec.js';

/** `--record` / `--replay` of `agentlib graph run|resume|fork`. */
export interface GraphCassetteRequest {
  record?: string;
  replay?: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** With `replay`: recorded calls answer as often as a request matches them (`agentlib serve`: every request is a new run). */
  reuse?: boolean;
  /**
   * With `replay`: warn about recorded calls left unused (default true). Off for resume and fork,
   * which replay a part of a recorded run from the run's cassette.
   */
  warnUnused?: boolean;
}

/** How a graph's agents get their provider, and what the command reports at the end. */
export interface GraphCassettes {
  /** Passed to loadGraph: every agent node's provider. */
  loadOptions: LoadGraphOptions;
  /** Call once the graph is loaded: `--record` on a graph without agent nodes is refused. */
  loaded(): void;
  /**
   * Ends the recording or replay: writes the cassette header of a recording that made no call
   * (so it replays), and returns the lines to print (`recorded N provider call(s) to …`, unused
   * recorded calls).
   */
  finish(): string[];
}

/**
 * One cassette for every agent node of a graph: with `replay`, one ReplayProvider answers every
 * node's calls (matched by request, so parallel branches replay in any order); with `record`, one
 * RecordingProvider writes every node's calls. A cassette holds one provider, so the agent files
 * of a recorded graph must name the same provider spec; another one is refused, never recorded
 * half. The recorder is opened at the first call, once every agent is loaded, so the values of
 * the environment variables interpolated into any of the files are scrubbed.
 */
export function graphCassettes(request: GraphCassetteRequest): GraphCassettes {
  if (request.record !== undefined && request.replay !== undefined) throw new UsageError('--record and --replay cannot be used together.');
  if (request.replay !== undefined) {
    const replay = ReplayProvider.fromFile(resolve(request.cwd, request.replay), { env: request.env, reuse: request.reuse ?? false });
    let used = false;
    return {
      // Every agent file's provider is answered by the cassette (the spec is not built).
      loadOptions: {
        createProvider: () => {
          used = true;
          return Promise.resolve(replay);
        },
      },
      loaded: () => {
        if (!used) throw new UsageError('--replay: the graph has no agent node, so no provider call to replay.');
      },
      finish: () => (replay.unused > 0 && request.warnUnused !== false ? [`warning: ${replay.unused} recorded provider call(s) in the cassette were not used`] : []),
    };
  }
  if (request.record === undefined) return { loadOptions: {}, loaded: () => undefined, finish: () => [] };
  const path = resolve(request.cwd, request.record);
  let first: { spec: ProviderSpec; inner: Provider } | undefined;
  const scrubEnv = new Set<string>();
  let recorder: RecordingProvider | undefined;
  const open = (): RecordingProvider => {
    if (first === undefined) throw new UsageError('--record: the graph has no agent node, so no provider call to record.');
    recorder ??= new RecordingProvider(first.inner, { path, env: request.env, scrubEnv: [...scrubEnv] });
    return recorder;
  };
  return {
    loadOptions: {
      createProvider: async (spec, context) => {
        for (const name of context.interpolatedEnv) scrubEnv.add(name);
        if (first === undefined) first = { spec, inner: await createProvider(spec) };
        else if (!isDeepStrictEqual(first.spec, spec)) {
          throw new UsageError(`--record: a cassette holds one provider, and the graph's agent files name two (${JSON.stringify(first.spec)} and ${JSON.stringify(spec)}); give them the same provider to record the graph.`);
        }
        return new DeferredRecording(first.inner, open);
      },
    },
    loaded: () => {
      if (first === undefined) throw new UsageError('--record: the graph has no agent node, so no provider call to record.');
    },
    finish: () => (first === undefined ? [] : [`recorded ${open().recorded} provider call(s) to ${path}`]),
  };
}

/** An agent node's provider while recording: the shared recorder, opened at the first call. */
class DeferredRecording implements Provider {
  readonly name: string;
  readonly defaultModel: string;
  readonly capabilities: ProviderCapabilities;
  readonly #open: () => RecordingProvider;

  constructor(inner: Provider, open: () => RecordingProvider) {
    this.name = inner.name;
    this.defaultModel = inner.defaultModel;
    this.capabilities = inner.capabilities;
    this.#open = open;
    if (inner.embed !== undefined) this.embed = (request) => (this.#open().embed as (r: EmbedRequest) => Promise<EmbedResponse>)(request);
  }

  embed?: (request: EmbedRequest) => Promise<EmbedResponse>;

  complete(request: ProviderRequest): Promise<ProviderResponse> {
    return this.#open().complete(request);
  }

  stream(request: ProviderRequest): AsyncIterable<StreamPart> {
    return this.#open().stream(request);
  }
}
