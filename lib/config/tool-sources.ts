import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { TOOL_FILE_EXTENSIONS } from '../tools/loader.js';
import { isBareSpecifier, resolvePackageEntry } from '../tools/resolve-package.js';
import { confinePath } from './confine.js';
import { offsetOf, report, type ReadContext } from './read-context.js';
import { str } from './readers.js';

/** Where a `tools:` entry sits in the file (1-based). */
export interface SourcePosition {
  line: number;
  col: number;
}

/** A `tools:` entry, resolved: a module file (optionally one export), a directory, or an installed package. */
export type ToolSourceRef =
  | { kind: 'file'; source: string; path: string; exportName?: string; position: SourcePosition }
  | { kind: 'directory'; source: string; path: string; position: SourcePosition }
  | { kind: 'package'; source: string; specifier: string; entry: string; exportName?: string; position: SourcePosition };

function positionOf(ctx: ReadContext, node: unknown): SourcePosition {
  const { line, col } = ctx.lineCounter.linePos(offsetOf(ctx, node) ?? 0);
  return { line: Math.max(1, line), col: Math.max(1, col) };
}

/**
 * Reads one `tools:` entry: `./tools.ts#lookupCustomer`, `./tools.ts`, `./tools/`, `my-tools`,
 * `@org/tools/search#find`. Paths resolve against the YAML file's directory and must stay inside
 * it; bare names are packages resolved from there. Problems are reported with the entry's position.
 */
export function readToolSource(ctx: ReadContext, node: unknown, path: string): ToolSourceRef | undefined {
  const source = str({ nonEmpty: true })(ctx, node, path);
  if (source === undefined) return undefined;
  const position = positionOf(ctx, node);
  const at = source.lastIndexOf('#');
  const target = at > 0 ? source.slice(0, at) : source;
  const exportName = at > 0 ? source.slice(at + 1) : undefined;
  if (exportName !== undefined && !/^[A-Za-z_$][\w$]*$/.test(exportName)) {
    report(ctx, node, path, `invalid export name ${JSON.stringify(exportName)} in tool reference "${source}"`, { hint: 'write path#exportName, e.g. ./tools.ts#lookupCustomer' });
    return undefined;
  }
  const named = exportName === undefined ? {} : { exportName };
  if (isBareSpecifier(target) && !existsSync(resolve(ctx.baseDir, target))) {
    try {
      return { kind: 'package', source, specifier: target, entry: resolvePackageEntry(target, ctx.baseDir), ...named, position };
    } catch (error) {
      if (!ConfigurationError.isInstance(error)) throw error;
      const dotted = !target.includes('/') && target.includes('.');
      report(ctx, node, path, `cannot find the tool package "${target}" (from ${ctx.baseDir})`, {
        hint: dotted
          ? `module references are "path#export", e.g. ./${target.split('.').slice(0, -1).join('/')}.ts#${target.split('.').pop() ?? 'name'}`
          : 'install it, or write ./name for a file next to the config',
      });
      return undefined;
    }
  }
  const found = confinePath(ctx.baseDir, target);
  if (!found.ok) {
    const hint = found.reason === 'outside' || found.reason === 'symlink-outside' ? 'tool paths must stay inside the config directory; publish shared tools as a package' : undefined;
    report(ctx, node, path, `tool source ${found.message}`, {
      ...(found.suggestion === undefined ? {} : { suggestion: exportName === undefined ? found.suggestion : `${found.suggestion}#${exportName}` }),
      hint,
    });
    return undefined;
  }
  if (found.kind === 'directory') {
    if (exportName !== undefined) {
      report(ctx, node, path, `"${target}" is a directory; "#${exportName}" needs a module file`);
      return undefined;
    }
    return { kind: 'directory', source, path: found.path, position };
  }
  if (!TOOL_FILE_EXTENSIONS.includes(extname(found.path))) {
    report(ctx, node, path, `"${target}" is not a module the tool loader can import (expected ${TOOL_FILE_EXTENSIONS.join(', ')})`);
    return undefined;
  }
  return { kind: 'file', source, path: found.path, ...named, position };
}
