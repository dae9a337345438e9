import { globToRegExp } from './path-glob.js';

interface IgnoreRule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

/**
 * `.gitignore`-style rules: blank lines and `#` comments skipped, `!` re-includes, a trailing `/`
 * matches directories only, a leading `/` (or any `/` inside) anchors the pattern to the folder
 * of the ignore file, otherwise it matches a name at any depth; `*`, `**`, `?`, `[…]`. The last
 * matching rule wins.
 */
export class IgnoreRules {
  readonly #rules: IgnoreRule[] = [];

  /** Adds the rules of an ignore file whose folder is `base` (relative to the root, `''` for the root). */
  add(content: string, base = ''): this {
    for (const raw of content.split(/\r?\n/)) {
      let line = raw.replace(/(?<!\\)\s+$/, '');
      if (line === '' || line.startsWith('#')) continue;
      const negate = line.startsWith('!');
      if (negate) line = line.slice(1);
      if (line.startsWith('\\')) line = line.slice(1);
      const dirOnly = line.endsWith('/');
      if (dirOnly) line = line.slice(0, -1);
      const anchored = line.includes('/');
      line = line.replace(/^\//, '');
      if (line === '') continue;
      const prefix = base === '' ? '' : `${base}/`;
      const pattern = anchored ? `${prefix}${line}` : `${prefix}**/${line}`;
      this.#rules.push({ regex: globToRegExp(pattern), negate, dirOnly });
    }
    return this;
  }

  /** Is the path (relative to the root, `/`-separated) ignored? */
  ignores(path: string, isDirectory: boolean): boolean {
    let ignored = false;
    for (const rule of this.#rules) {
      if (rule.dirOnly && !isDirectory) continue;
      if (rule.regex.test(path)) ignored = !rule.negate;
    }
    return ignored;
  }
}
