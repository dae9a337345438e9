import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { templatesDirectory, type TemplateOptions } from '../../lib/config/templates.js';
import type { AgentYamlValues } from './agent-yaml.js';
import { CASSETTE_FILE, cassettePrompt, retargetCassette } from './cassette.js';

/** A file init writes (the shape of scaffold.ts's PlannedFile; not imported, scaffold.ts imports choices.ts which imports this). */
interface PlannedFile {
  path: string;
  content: string | Uint8Array;
}

/** What init writes for a graph template (scaffold.ts's ScaffoldPlan). */
interface GraphScaffoldPlan {
  files: PlannedFile[];
  packages: string[];
  offlinePrompt?: string;
}

/** The graph file of a graph template folder (`templates/research_graph/graph.yaml`). */
export const GRAPH_TEMPLATE_FILE = 'graph.yaml';

/** Files of a graph template folder that are not copied (the README stays in the package). */
const NOT_COPIED = new Set(['README.md']);

/** Names of the graph templates (folders holding a `graph.yaml`), sorted. */
export function listGraphTemplates(options: TemplateOptions = {}): string[] {
  const dir = templatesDirectory(options);
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, GRAPH_TEMPLATE_FILE)))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/** True when `template` is a graph template. */
export function isGraphTemplate(template: string, options: TemplateOptions = {}): boolean {
  return listGraphTemplates(options).includes(template);
}

function setKeys(text: string, values: Record<string, string>): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new Error(`a graph template file is not valid YAML: ${doc.errors[0]?.message ?? ''}`);
  for (const [key, value] of Object.entries(values)) doc.set(key, value);
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** The agent files a graph file's nodes name (`agent: ./research.yaml`), relative to its folder. */
export function graphAgentFiles(graphText: string): string[] {
  const doc = parseDocument(graphText).toJS() as { nodes?: Record<string, { agent?: unknown; parallel?: Record<string, { agent?: unknown }> }> };
  const files = new Set<string>();
  for (const node of Object.values(doc.nodes ?? {})) {
    if (typeof node.agent === 'string') files.add(node.agent.replace(/^\.\//, ''));
    for (const member of Object.values(node.parallel ?? {})) if (typeof member.agent === 'string') files.add(member.agent.replace(/^\.\//, ''));
  }
  return [...files].sort();
}

/**
 * The files `agentlib init` writes for a graph template: graph.yaml with `name` set, every agent
 * file its nodes name with the chosen `provider` and `model` (their own names kept), the node
 * modules, the cassette made to replay for that provider and model, and PROVENANCE.md.
 */
export function planGraphScaffold(template: string, values: AgentYamlValues, options: TemplateOptions = {}): GraphScaffoldPlan {
  const dir = join(templatesDirectory(options), template);
  const graphText = readFileSync(join(dir, GRAPH_TEMPLATE_FILE), 'utf8');
  const agents = new Set(graphAgentFiles(graphText));
  const files: PlannedFile[] = [];
  let prompt: string | undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile() || NOT_COPIED.has(entry.name)) continue;
    const path = entry.name;
    if (path === GRAPH_TEMPLATE_FILE) files.push({ path, content: setKeys(graphText, { name: values.name }) });
    else if (agents.has(path)) files.push({ path, content: setKeys(readFileSync(join(dir, path), 'utf8'), { provider: values.provider, model: values.model }) });
    else if (path === CASSETTE_FILE) {
      const text = readFileSync(join(dir, path), 'utf8');
      files.push({ path, content: retargetCassette(text, values) });
      prompt = cassettePrompt(text);
    } else files.push({ path, content: readFileSync(join(dir, path)) });
  }
  files.sort((a, b) => (a.path === GRAPH_TEMPLATE_FILE ? -1 : b.path === GRAPH_TEMPLATE_FILE ? 1 : a.path.localeCompare(b.path)));
  return { files, packages: [], ...(prompt === undefined ? {} : { offlinePrompt: prompt }) };
}
