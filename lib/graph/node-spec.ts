import type { Agent } from '../agent/agent.js';
import type { MergePolicy } from './constants.js';
import type { LiveGenerators } from './live-generators.js';
import type { AgentGraphOptions, NodeFunction, NodeGenerator, NodeOptions, Router } from './types.js';

/** A node that runs one thing. */
export type LeafSpec =
  | { kind: 'agent'; name: string; agent: Agent; options: NodeOptions }
  | { kind: 'function'; name: string; fn: NodeFunction | NodeGenerator; options: NodeOptions };

/** Every kind of node a graph holds. */
export type NodeSpec =
  | LeafSpec
  | { kind: 'parallel'; name: string; members: LeafSpec[]; merge: MergePolicy; options: NodeOptions }
  | { kind: 'subgraph'; name: string; graph: GraphDefinitionSource; inputMap: Record<string, string> | undefined; outputMap: Record<string, string> | undefined; options: NodeOptions };

/** Something that has a graph definition (an AgentGraph). */
export interface GraphDefinitionSource {
  /** @internal */
  definition(): GraphDefinition;
}

/** A conditional edge. */
export interface RouterSpec {
  router: Router;
  /** The nodes it may return, when declared (diagrams draw them; a return outside them is an error). */
  targets: readonly string[] | undefined;
}

/** What the runner reads from an AgentGraph. */
export interface GraphDefinition {
  readonly name: string;
  readonly nodes: ReadonlyMap<string, NodeSpec>;
  readonly edges: ReadonlyMap<string, string>;
  readonly routers: ReadonlyMap<string, RouterSpec>;
  readonly entry: string | undefined;
  readonly options: AgentGraphOptions;
  readonly live: LiveGenerators;
}
