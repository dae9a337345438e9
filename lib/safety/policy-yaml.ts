// The agent YAML's loader: the build's one-file copy of yaml, loaded on first use.
import type * as Yaml from 'yaml';
import { loadYaml } from '../config/yaml-module.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { yamlSyntaxProblems } from '../core/yaml-syntax-errors.js';
import { parsePolicyConfig, type ConfigPath } from './policy-config.js';
import type { ToolPolicyOptions } from './tool-policy-options.js';


/**
 * Parses and validates a YAML tool policy. Syntax errors and invalid keys or values are
 * ConfigurationErrors whose message includes `line:col` (prefixed by `source` when given).
 */
export function parsePolicyYaml(text: string, source?: string): ToolPolicyOptions {
  const yaml = loadYaml();
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const position = (offset: number): string => {
    const { line, col } = lineCounter.linePos(offset);
    return source === undefined ? `line ${line}:${col}` : `${source}:${line}:${col}`;
  };
  const syntaxError = yamlSyntaxProblems(doc.errors, text)[0];
  if (syntaxError !== undefined) {
    throw new ConfigurationError(`invalid tool policy YAML at ${position(syntaxError.offset)}: ${syntaxError.message}`, {
      cause: doc.errors[0],
    });
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigurationError(`invalid tool policy YAML${source === undefined ? '' : ` in ${source}`}: ${(error as Error).message}`, { cause: error });
  }
  return parsePolicyConfig(data, (path, target) => {
    const offset = locateNode(yaml, doc.contents, path, target);
    return offset === undefined ? undefined : position(offset);
  });
}

/** Offset of the key or value at `path` in a parsed YAML tree, or undefined. */
function locateNode(yaml: typeof Yaml, root: unknown, path: ConfigPath, target: 'key' | 'value'): number | undefined {
  let node: unknown = root;
  for (const [i, segment] of path.entries()) {
    const last = i === path.length - 1;
    if (yaml.isMap(node)) {
      const pair = node.items.find((item) => (yaml.isScalar(item.key) ? item.key.value : item.key) === segment);
      if (pair === undefined) return offsetOf(yaml, node);
      if (last && target === 'key') return offsetOf(yaml, pair.key);
      node = pair.value;
    } else if (yaml.isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
    } else {
      return offsetOf(yaml, node);
    }
  }
  return offsetOf(yaml, node);
}

function offsetOf(yaml: typeof Yaml, node: unknown): number | undefined {
  return yaml.isNode(node) ? node.range?.[0] : undefined;
}
