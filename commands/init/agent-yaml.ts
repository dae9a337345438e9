import { isMap, isScalar, parseDocument, type Document, type Node, type Pair } from 'yaml';

/** The values `agentlib init` writes into an agent YAML. */
export interface AgentYamlValues {
  name: string;
  provider: string;
  model: string;
}

/** The agent.yaml of the blank template; `name`, `provider` and `model` are replaced by {@link setAgentValues}. */
export const BLANK_AGENT_YAML = `# An agent created by \`agentlib init\`. Every key is described in agentlib's docs/yaml.md.
# Run it offline, no API key (a cassette of a scripted run, see PROVENANCE.md):
#   agentlib run agent.yaml "What is 21 degrees Celsius in Fahrenheit?" --replay cassette.jsonl
# With the provider's API key set, drop --replay to ask the real model.
name: my_agent
# openai, anthropic, gemini or ollama; API keys come from the environment, never from this file
provider: openai
model: gpt-4o-mini
# The loop stops after this many model calls
max_iterations: 10
# Every tool exported from tools.ts (yours to edit); add more files or folders here
tools:
  - ./tools.ts
# Tools not listed here need a person's approval before each call (the default decision is review)
policy:
  allow: [convert_temperature]
system_prompt: |
  You are a helpful assistant. Answer concisely.
  Use your tools when a question needs current or exact information, and never invent their results.
`;

function pairOf(doc: Document, key: string): Pair<unknown, unknown> | undefined {
  const root = doc.contents;
  if (!isMap(root)) return undefined;
  return root.items.find((pair) => isScalar(pair.key) && pair.key.value === key);
}

/** Sets a top-level scalar in place (keeping the node's comments), or adds it after `after`. */
function setScalar(doc: Document, key: string, value: string, after?: string): void {
  const root = doc.contents;
  if (!isMap(root)) throw new Error('the template agent.yaml is not a mapping');
  const existing = pairOf(doc, key);
  if (existing !== undefined) {
    if (isScalar(existing.value)) {
      existing.value.value = value;
      // a block or quoted style from the template may not suit the new value
      existing.value.type = 'PLAIN';
    } else {
      const node = doc.createNode(value) as Node;
      const old = existing.value as Node | null;
      if (old !== null) {
        if (old.comment !== undefined) node.comment = old.comment;
        if (old.commentBefore !== undefined) node.commentBefore = old.commentBefore;
      }
      existing.value = node;
    }
    return;
  }
  const pair = doc.createPair(key, value) as Pair<unknown, unknown>;
  const index = after === undefined ? -1 : root.items.findIndex((item) => isScalar(item.key) && item.key.value === after);
  if (index === -1) root.items.push(pair);
  else root.items.splice(index + 1, 0, pair);
}

/**
 * Writes `name`, `provider` and `model` into agent YAML text through the `yaml` Document API, so
 * the template's comments, key order and formatting survive. A `provider` mapping or list in the
 * template is replaced by the provider's name; `model` goes right after `provider` when absent.
 */
export function setAgentValues(text: string, values: AgentYamlValues): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new Error(`the template agent.yaml is not valid YAML: ${doc.errors[0]?.message ?? ''}`);
  setScalar(doc, 'name', values.name);
  setScalar(doc, 'provider', values.provider, 'name');
  setScalar(doc, 'model', values.model, 'provider');
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
