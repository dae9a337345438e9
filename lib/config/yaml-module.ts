import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let yamlModule: typeof Yaml | undefined;

/**
 * The `yaml` package, loaded on first use so that importing `lib/config` costs nothing. Its Node
 * build is CommonJS, so `require` returns the same instance an `import 'yaml'` elsewhere gets.
 */
export function loadYaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}
