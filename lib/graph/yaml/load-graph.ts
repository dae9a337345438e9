import { pathToFileURL } from 'node:url';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { loadAgent, type LoadAgentOptions } from '../../config/load-agent.js';
import { AgentGraph, type NodeTarget } from '../agent-graph.js';
import { END } from '../constants.js';
import type { NodeOptions, Router } from '../types.js';
import type { GraphFileNode } from './graph-fields.js';
import { parseGraphConfig, type LoadedGraphConfig } from './parse-graph-config.js';
import { buildSupervisor, parseSupervisorConfig, yamlKind } from './load-supervisor.js';

/** Options of loadGraph: how the agents of agent nodes are built. */
export type LoadGraphOptions = LoadAgentOptions;

async function importExport(config: LoadedGraphConfig, ref: string, what: string): Promise<unknown> {
  const hash = ref.lastIndexOf('#');
  const file = resolve(config.baseDir, ref.slice(0, hash));
  const name = ref.slice(hash + 1);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigurationError(`${config.source}: cannot import ${what} module "${file}": ${(error as Error).message}`, { cause: error });
  }
  if (typeof module[name] !== 'function') {
    throw new ConfigurationError(`${config.source}: ${what} "${ref}": the module exports no function "${name}"${Object.keys(module).length > 0 ? ` (it exports ${Object.keys(module).join(', ')})` : ''}`);
  }
  return module[name];
}

const end = (name: string): string => (name === 'END' ? END : name);

async function target(config: LoadedGraphConfig, node: GraphFileNode, options: LoadGraphOptions): Promise<NodeTarget> {
  if (node.agent !== undefined) return loadAgent(resolve(config.baseDir, node.agent), options);
  return (await importExport(config, node.function as string, 'function')) as NodeTarget;
}

function nodeOptions(node: GraphFileNode): NodeOptions {
  return {
    ...(node.contextMode === undefined ? {} : { contextMode: node.contextMode }),
    ...(node.contextN === undefined ? {} : { contextN: node.contextN }),
    ...(node.errorPolicy === undefined ? {} : { errorPolicy: node.errorPolicy }),
    ...(node.retry === undefined ? {} : { retry: node.retry }),
    ...(node.interruptBefore === undefined ? {} : { interruptBefore: node.interruptBefore }),
  };
}

/**
 * Builds an AgentGraph from a graph YAML file: agent nodes from agent YAML files, function nodes
 * and routers from module exports (`./nodes.mjs#write`), subgraphs from graph files, parallel
 * groups, edges; all paths relative to the file.
 */
export async function loadGraph(path: string, options: LoadGraphOptions = {}): Promise<AgentGraph> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`cannot read graph file "${path}": ${(error as Error).message}`, { cause: error });
  }
  if (yamlKind(text) === 'supervisor') {
    // `kind: supervisor`: a SupervisorAgent, run as its graph (checkpoints, resume and trace alike).
    const config = parseSupervisorConfig(text, { source: path, ...(options.env ? { env: options.env } : {}) });
    return (await buildSupervisor(config, dirname(resolve(path)), path, options)).graph;
  }
  return buildGraph({ ...parseGraphConfig(text, { source: path, baseDir: dirname(resolve(path)), ...(options.env ? { env: options.env } : {}) }), source: resolve(path) }, options);
}

/** Builds an AgentGraph from a parsed graph file. */
export async function buildGraph(config: LoadedGraphConfig, options: LoadGraphOptions = {}): Promise<AgentGraph> {
  const graph = new AgentGraph({
    name: config.name ?? 'graph',
    ...(config.maxSteps === undefined ? {} : { maxSteps: config.maxSteps }),
    ...(config.stallThreshold === undefined ? {} : { stallThreshold: config.stallThreshold }),
    ...(config.maxTotalTokens === undefined ? {} : { maxTotalTokens: config.maxTotalTokens }),
    ...(config.maxCostUsd === undefined ? {} : { maxCostUsd: config.maxCostUsd }),
    ...(config.errorPolicy === undefined ? {} : { errorPolicy: config.errorPolicy }),
    ...(config.retry === undefined ? {} : { retry: config.retry }),
  });
  for (const [name, node] of Object.entries(config.nodes)) {
    const next = node.next === undefined ? {} : { next: end(node.next) };
    if (node.parallel !== undefined) {
      const members: Record<string, NodeTarget> = {};
      for (const [member, m] of Object.entries(node.parallel)) members[member] = await target(config, m, options);
      graph.addParallelNodes(name, members, { ...next, ...(node.merge === undefined ? {} : { merge: node.merge }), ...(node.interruptBefore === undefined ? {} : { interruptBefore: node.interruptBefore }) });
    } else if (node.graph !== undefined) {
      const child = await loadGraph(resolve(config.baseDir, node.graph), options);
      graph.addSubgraph(name, child, { ...next, ...(node.inputMap ? { inputMap: node.inputMap } : {}), ...(node.outputMap ? { outputMap: node.outputMap } : {}), ...(node.interruptBefore === undefined ? {} : { interruptBefore: node.interruptBefore }) });
    } else {
      graph.addNode(name, await target(config, node, options), { ...nodeOptions(node), ...next });
    }
  }
  for (const edge of config.edges ?? []) graph.addEdge(edge.from, end(edge.to));
  for (const edge of config.conditionalEdges ?? []) {
    const router = (await importExport(config, edge.router, 'router')) as Router;
    graph.addConditionalEdge(edge.from, router, edge.targets ? { targets: edge.targets.map(end) } : {});
  }
  graph.setEntry(config.entry);
  graph.validate();
  return graph;
}
