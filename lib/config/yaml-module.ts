import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

/** The build's one-file copy of `yaml` (scripts/bundle-tui.mjs), next to this module in dist/. */
const BUNDLE = './yaml.bundle.cjs';

let yamlModule: typeof Yaml | undefined;

/**
 * The `yaml` package, loaded on first use so that importing `lib/config` costs nothing. The build
 * puts a one-file bundle of it beside this module (loading the package's ~70 CommonJS files costs
 * ~25 ms of every `agentlib run`); without the bundle (running from the sources) the package itself
 * is loaded. Both are the same code, and yaml tells its node types apart by registered symbols
 * (`isMap`, `isScalar`, …), so documents from either copy are read alike.
 */
export function loadYaml(): typeof Yaml {
  yamlModule ??= requireYaml();
  return yamlModule;
}

function requireYaml(): typeof Yaml {
  const require = createRequire(import.meta.url);
  try {
    return require(BUNDLE) as typeof Yaml;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code !== 'MODULE_NOT_FOUND' || typeof message !== 'string' || !message.includes(BUNDLE)) throw error;
  }
  return require('yaml') as typeof Yaml;
}
