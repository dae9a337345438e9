import { readFile } from 'node:fs/promises';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { compileDenyWhen, compilePattern, type DenyWhenCheck, type DenyWhenRule } from './deny-when.js';
import type { Glob } from './glob.js';
import { parsePolicyConfig } from './policy-config.js';
import { isPolicyDecision, POLICY_DECISIONS, PolicyDecision, type PolicyResult } from './policy-decision.js';
import { parsePolicyYaml } from './policy-yaml.js';
import type { ToolPolicyOptions } from './tool-policy-options.js';

/** The plain-object form of a ToolPolicy (`toJSON()`); `ToolPolicy.fromDict` reads it back. */
export interface ToolPolicyJSON {
  allow: string[];
  review: string[];
  deny: string[];
  denyWhen: DenyWhenRule[];
  default: PolicyDecision;
}

interface CompiledPatterns {
  readonly kind: 'allow' | 'review' | 'deny';
  readonly patterns: readonly Glob[];
}

/**
 * Decides, per tool call, whether it runs (`allow`), needs a human's approval (`review`) or is
 * refused (`deny`). Patterns are globs over tool names (`*`, `?`, `[abc]`, `[[:digit:]]`), matched
 * against the whole name, case-sensitively.
 *
 * Evaluation order: `deny` patterns and `denyWhen` argument rules, then `review`, then `allow`,
 * then the default (`review` unless configured).
 *
 * @example
 * const policy = new ToolPolicy({
 *   allow: ['read_*', 'search'],
 *   review: ['write_*'],
 *   deny: ['delete_*'],
 *   denyWhen: [{ tool: 'run_shell', argument: 'command', matches: ['rm *', 'sudo *'] }],
 * });
 * policy.evaluate('delete_file', { path: 'a' }); // { decision: 'deny', reason: 'tool "delete_file" matches deny pattern "delete_*"', … }
 */
export class ToolPolicy {
  /** Patterns of tools that run without asking. */
  readonly allow: readonly string[];
  /** Patterns of tools that need approval. */
  readonly review: readonly string[];
  /** Patterns of tools that never run. */
  readonly deny: readonly string[];
  /** Argument-level deny rules. */
  readonly denyWhen: readonly DenyWhenRule[];
  /** The decision when nothing matches. */
  readonly defaultDecision: PolicyDecision;
  readonly #lists: readonly CompiledPatterns[];
  readonly #denyChecks: readonly DenyWhenCheck[];

  /** Validates and compiles every pattern; throws ConfigurationError for an invalid one. */
  constructor(options: ToolPolicyOptions = {}) {
    this.allow = Object.freeze(listOption(options.allow, 'allow'));
    this.review = Object.freeze(listOption(options.review, 'review'));
    this.deny = Object.freeze(listOption(options.deny, 'deny'));
    const rules: readonly DenyWhenRule[] = options.denyWhen ?? [];
    if (!isList(rules)) throw new ConfigurationError('denyWhen must be a list of rules', { key: 'denyWhen' });
    this.denyWhen = Object.freeze(rules.map((rule) => Object.freeze({ ...rule })));
    const fallback = options.default ?? PolicyDecision.REVIEW;
    if (!isPolicyDecision(fallback)) {
      throw new ConfigurationError(`default must be one of ${POLICY_DECISIONS.join(', ')}; got ${JSON.stringify(fallback)}`, { key: 'default' });
    }
    this.defaultDecision = fallback;
    this.#lists = (['deny', 'review', 'allow'] as const).map((kind) => ({
      kind,
      patterns: this[kind].map((pattern, i) => compilePattern(pattern, `${kind}[${i}]`)),
    }));
    this.#denyChecks = this.denyWhen.map((rule, i) => compileDenyWhen(rule, `denyWhen[${i}]`));
  }

  /**
   * Decides what happens to a call of `toolName` with `args`. Deny (patterns, then `denyWhen`
   * rules in order) wins over review, review over allow; otherwise the default applies.
   */
  evaluate(toolName: string, args: unknown = {}): PolicyResult {
    const [deny, review, allow] = this.#lists;
    const denied = firstMatch(deny, toolName);
    if (denied !== undefined) return denied;
    for (const [i, check] of this.#denyChecks.entries()) {
      const reason = check(toolName, args);
      if (reason !== undefined) return { decision: PolicyDecision.DENY, reason, rule: `denyWhen[${i}]` };
    }
    const matched = firstMatch(review, toolName) ?? firstMatch(allow, toolName);
    if (matched !== undefined) return matched;
    return {
      decision: this.defaultDecision,
      reason: `tool "${toolName}" matches no allow, review or deny pattern; the default is ${this.defaultDecision}`,
    };
  }

  /** The policy as plain data (camelCase keys), accepted back by `fromDict`. */
  toJSON(): ToolPolicyJSON {
    return {
      allow: [...this.allow],
      review: [...this.review],
      deny: [...this.deny],
      denyWhen: this.denyWhen.map((rule) => ({ ...rule })),
      default: this.defaultDecision,
    };
  }

  /**
   * Builds a policy from plain data with snake_case (`deny_when`) or camelCase (`denyWhen`) keys,
   * validating strictly: unknown keys (with a did-you-mean) and wrong types are ConfigurationErrors.
   */
  static fromDict(data: unknown): ToolPolicy {
    return new ToolPolicy(parsePolicyConfig(data));
  }

  /**
   * Builds a policy from YAML text (the `fromDict` shape). Errors carry `line:col`, prefixed by
   * `options.source` (a file name) when given.
   */
  static fromYaml(text: string, options: { source?: string } = {}): ToolPolicy {
    return new ToolPolicy(parsePolicyYaml(text, options.source));
  }

  /** Reads a YAML policy file (see `fromYaml`); an unreadable file is a ConfigurationError. */
  static async fromYamlFile(path: string): Promise<ToolPolicy> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new ConfigurationError(`cannot read tool policy file "${path}": ${(error as Error).message}`, { cause: error });
    }
    return ToolPolicy.fromYaml(text, { source: path });
  }
}

function firstMatch(list: CompiledPatterns | undefined, toolName: string): PolicyResult | undefined {
  if (list === undefined) return undefined;
  const hit = list.patterns.find((glob) => glob.test(toolName));
  if (hit === undefined) return undefined;
  return {
    decision: list.kind,
    reason: `tool "${toolName}" matches ${list.kind} pattern "${hit.pattern}"`,
    rule: `${list.kind}:${hit.pattern}`,
  };
}

function listOption(value: readonly string[] | undefined, key: string): string[] {
  if (value === undefined) return [];
  if (!isList(value)) throw new ConfigurationError(`${key} must be a list of glob patterns`, { key });
  return [...value];
}

/** Array check without narrowing to `any[]` (options may come from untyped JavaScript). */
function isList(value: unknown): boolean {
  return Array.isArray(value);
}
