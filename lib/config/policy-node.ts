import { readFileSync } from 'node:fs';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { parsePolicyConfig } from '../safety/policy-config.js';
import { parsePolicyYaml } from '../safety/policy-yaml.js';
import type { ToolPolicyOptions } from '../safety/tool-policy-options.js';
import { confinePath } from './confine.js';
import { childPath, deref, describeNode, report, type ReadContext } from './read-context.js';
import { plain } from './read-collections.js';
import { readMapping } from './read-mapping.js';
import { type FieldTable, type Reader } from './readers.js';

/** `policy:` resolved: the policy options, and the file they came from when given as a path. */
export interface PolicySpec {
  options: ToolPolicyOptions;
  /** Absolute path of the policy YAML, when `policy:` named a file. */
  file?: string;
}

const keep: Reader = plain;

/** Keys of an inline policy (the `ToolPolicy.fromDict` shape, snake_case). */
export const POLICY_FIELDS: FieldTable = {
  allow: { read: keep, type: 'list of globs', description: 'Tools that run without asking.' },
  review: { read: keep, type: 'list of globs', description: 'Tools that need a human approval.' },
  deny: { read: keep, type: 'list of globs', description: 'Tools that never run.' },
  deny_when: { read: keep, type: 'list of rules', description: 'Argument rules `{ tool, argument, matches | equals | regex, reason }` that deny a call.' },
  default: { read: keep, type: 'allow | review | deny', default: 'review', description: 'Decision when nothing matches.' },
};

/** Parses `deny_when[0].regex` into segments. */
function segments(key: string): (string | number)[] {
  return [...key.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? (m[1] ?? '') : Number(m[2])));
}

/** The node at `path` under `node` (the key node when `key`), or the deepest one found. */
function nodeAt(ctx: ReadContext, node: unknown, path: readonly (string | number)[], key: boolean): unknown {
  let current = deref(ctx, node);
  for (const [i, segment] of path.entries()) {
    if (ctx.yaml.isMap(current)) {
      const pair = current.items.find((item) => ctx.yaml.isScalar(item.key) && item.key.value === segment);
      if (pair === undefined) return current;
      if (key && i === path.length - 1) return pair.key;
      current = deref(ctx, pair.value);
    } else if (ctx.yaml.isSeq(current) && typeof segment === 'number') {
      const item = current.items[segment];
      if (item === undefined) return current;
      current = deref(ctx, item);
    } else {
      return current;
    }
  }
  return current;
}

function readInline(ctx: ReadContext, node: unknown, path: string): PolicySpec | undefined {
  const before = ctx.issues.length;
  const raw = readMapping(ctx, node, path, POLICY_FIELDS, {});
  if (raw === undefined) return undefined;
  const options: ToolPolicyOptions = {};
  for (const [camel, value] of Object.entries(raw)) {
    const key = camel === 'denyWhen' ? 'deny_when' : camel;
    try {
      Object.assign(options, parsePolicyConfig({ [key]: value }));
    } catch (error) {
      if (!ConfigurationError.isInstance(error)) throw error;
      const at = segments(error.key ?? key);
      const message = error.message.replace(/ \(did you mean "[^"]*"\?\)/, '');
      report(ctx, nodeAt(ctx, node, at, message.startsWith('unknown key')), childPath(path, error.key ?? key), `invalid tool policy: ${message}`, {
        suggestion: error.suggestion,
      });
    }
  }
  return ctx.issues.length > before ? undefined : { options };
}

function readFile(ctx: ReadContext, node: unknown, path: string, written: string): PolicySpec | undefined {
  const found = confinePath(ctx.baseDir, written);
  if (!found.ok || found.kind !== 'file') {
    report(ctx, node, path, found.ok ? `policy "${written}" is a directory, not a policy YAML file` : `policy file ${found.message}`, {
      suggestion: found.ok ? undefined : found.suggestion,
    });
    return undefined;
  }
  try {
    return { options: parsePolicyYaml(readFileSync(found.path, 'utf8'), written), file: found.path };
  } catch (error) {
    if (!ConfigurationError.isInstance(error) && !(error instanceof Error && 'code' in error)) throw error;
    report(ctx, node, path, `invalid policy file "${written}": ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * Reads `policy:`: an inline mapping (`allow`, `review`, `deny`, `deny_when`, `default`) or the
 * path of a policy YAML file (relative to the config, confined to its directory). Every problem
 * is reported with its position.
 */
export function readPolicy(ctx: ReadContext, node: unknown, path: string): PolicySpec | undefined {
  const target = deref(ctx, node);
  if (ctx.yaml.isMap(target)) return readInline(ctx, node, path);
  if (ctx.yaml.isScalar(target) && typeof target.value === 'string') {
    const written = plain(ctx, node, path);
    return typeof written === 'string' ? readFile(ctx, node, path, written) : undefined;
  }
  report(ctx, node, path, `"${path}" must be a mapping (allow, review, deny, deny_when, default) or the path of a policy YAML file; got ${describeNode(ctx, node)}`);
  return undefined;
}
