import { Agent } from '../../agent/agent.js';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { AgentGraph } from '../agent-graph.js';
import { END, ErrorPolicy } from '../constants.js';
import type { GraphStream } from '../graph-stream.js';
import type { GraphResult, GraphRunOptions } from '../types.js';
import { readRecord, supervisorNode, workerNode, type SupervisorSetup } from './supervisor-nodes.js';
import { SUPERVISOR_DEFAULTS, SUPERVISOR_NODE, SupervisorStrategy, type SupervisorOptions, type SupervisorResult } from './types.js';

const STRATEGIES: readonly string[] = Object.values(SupervisorStrategy);

/**
 * A supervisor that coordinates agents with one of four strategies (plan_and_execute, round_robin,
 * dynamic, magentic). It runs on an AgentGraph (`supervisor.graph`): a `supervisor` node decides,
 * one node per agent does the work, so checkpoints, continuation, budgets, cancellation, events and
 * traces are the graph's. The plan, the ledgers and every turn live in `state.data.__supervisor__`.
 *
 * @example
 * const team = new SupervisorAgent({ agents: [researcher, writer], provider, strategy: 'plan_and_execute' });
 * const result = await team.run('Write a short report on tides');
 * console.log(result.content, result.turns);
 */
export class SupervisorAgent {
  /** The graph the supervisor runs on. */
  readonly graph: AgentGraph;
  readonly strategy: SupervisorStrategy;

  constructor(options: SupervisorOptions) {
    const strategy = options.strategy;
    if (!STRATEGIES.includes(strategy)) throw new ConfigurationError(`unknown supervisor strategy "${String(strategy)}" (use ${STRATEGIES.join(', ')})`);
    if (options.agents.length === 0) throw new ConfigurationError('a SupervisorAgent needs at least one agent');
    const names = new Set<string>();
    for (const agent of options.agents) {
      if (!(agent instanceof Agent)) throw new ConfigurationError('SupervisorAgent agents must be Agent instances');
      if (agent.name === SUPERVISOR_NODE || names.has(agent.name)) throw new ConfigurationError(`supervisor agents need unique names other than "${SUPERVISOR_NODE}" (got "${agent.name}" twice or reserved)`);
      names.add(agent.name);
    }
    const maxRounds = options.maxRounds ?? SUPERVISOR_DEFAULTS.maxRounds;
    const maxStalls = options.maxStalls ?? SUPERVISOR_DEFAULTS.maxStalls;
    if (!Number.isInteger(maxRounds) || maxRounds < 1) throw new ConfigurationError(`maxRounds must be a positive integer (got ${maxRounds})`);
    if (!Number.isInteger(maxStalls) || maxStalls < 1) throw new ConfigurationError(`maxStalls must be a positive integer (got ${maxStalls})`);
    this.strategy = strategy;
    const name = options.name ?? 'supervisor';
    const coordinator = (role: string, model: string | undefined): Agent =>
      new Agent({ name: `${name}-${role}`, provider: options.provider, ...(model === undefined ? {} : { model }), systemPrompt: `You are the ${role} of a team of agents. Answer only with the requested JSON.` });
    const setup: SupervisorSetup = { name, strategy, agents: options.agents, planner: coordinator('planner', options.plannerModel), executor: coordinator('router', options.executorModel), maxRounds, maxStalls };
    const graph = new AgentGraph({
      name,
      // One supervisor step per turn, one agent step per turn, the final supervisor step.
      maxSteps: 2 * maxRounds + 1,
      errorPolicy: options.errorPolicy ?? ErrorPolicy.ABORT,
      ...(options.retry === undefined ? {} : { retry: options.retry }),
      ...(options.maxTotalTokens === undefined ? {} : { maxTotalTokens: options.maxTotalTokens }),
      ...(options.maxCostUsd === undefined ? {} : { maxCostUsd: options.maxCostUsd }),
      ...(options.observers === undefined ? {} : { observers: options.observers }),
      ...(options.checkpointStore === undefined ? {} : { checkpointStore: options.checkpointStore }),
    });
    // The supervisor's own failures (a planner that never returns a valid plan) always end the run.
    graph.addNode(SUPERVISOR_NODE, supervisorNode(setup), { errorPolicy: ErrorPolicy.ABORT });
    for (const agent of options.agents) graph.addNode(agent.name, workerNode(setup, agent), { next: SUPERVISOR_NODE });
    graph.addConditionalEdge(SUPERVISOR_NODE, (state) => readRecord(state, strategy).next?.agent ?? END, { targets: [...names, END] });
    graph.setEntry(SUPERVISOR_NODE);
    this.graph = graph;
  }

  /** The supervisor's name (its graph's). */
  get name(): string {
    return this.graph.name;
  }

  /** Runs the team on `prompt`; the result is the graph run's plus the turns, plan and ledgers. */
  async run(prompt: string, options: GraphRunOptions = {}): Promise<SupervisorResult> {
    return SupervisorAgent.outcome(await this.graph.run(prompt, options), this.strategy);
  }

  /** Runs with live events (graph events, every nested agent event, `supervisor-replan`). */
  stream(prompt: string, options: GraphRunOptions = {}): GraphStream {
    return this.graph.stream(prompt, options);
  }

  /** Goes on with a thread from its latest checkpoint (after a crash, a cancel or a budget stop). */
  async continueThread(threadId: string, options: GraphRunOptions = {}): Promise<SupervisorResult> {
    return SupervisorAgent.outcome(await this.graph.continueThread(threadId, options), this.strategy);
  }

  /**
   * A supervisor graph run's result with the supervisor's record read out of its state
   * (`strategy`: what to report when the run stopped before the supervisor's first step).
   */
  static outcome(result: GraphResult, strategy: SupervisorStrategy = SupervisorStrategy.DYNAMIC): SupervisorResult {
    const record = readRecord(result.state, strategy);
    return {
      ...result,
      strategy: record.strategy,
      turns: record.turns,
      failures: record.turns.filter((t) => t.status === 'failed'),
      plan: record.plan,
      ledger: record.ledger,
      replans: record.replans,
      finish: record.finish,
    };
  }
}
