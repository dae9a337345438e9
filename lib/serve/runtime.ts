import type { AgentInfo } from './agent-info.js';
import type { RunnerDeps } from './run-agent.js';
import type { RunTracker } from './run-tracker.js';

/** What every route handler shares: admission control, the runner, the agent's description, limits. */
export interface ServeRuntime {
  tracker: RunTracker;
  runner: RunnerDeps;
  info: AgentInfo;
  bodyLimitBytes: number;
  /** Interval of SSE keep-alive comments (0: none). */
  keepAliveMs: number;
  /** Reports server-side failures (500s, provider errors) with their details. */
  logError: (message: string, error: unknown) => void;
  playground: boolean;
  auth: boolean;
}
