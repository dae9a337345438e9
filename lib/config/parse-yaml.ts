import { loadYaml } from './yaml-module.js';

/**
 * Parses one YAML document into plain values (mappings become objects) with agentlib's own `yaml`
 * package, loaded on the first call: tool modules that read YAML (Markdown front matter, say) need
 * no YAML package of their own. Malformed YAML throws the parser's error.
 */
export function parseYaml(text: string): unknown {
  return loadYaml().parse(text) as unknown;
}
