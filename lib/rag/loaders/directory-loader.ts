import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Document } from '../document.js';
import { IgnoreRules } from './ignore-file.js';
import { loadFile, type LoadFileOptions } from './load-file.js';
import { globToRegExp } from './path-glob.js';

/** Options of {@link loadDirectory} and {@link listDirectory}. */
export interface DirectoryLoadOptions extends Omit<LoadFileOptions, 'source'> {
  /** Globs of the files to load, relative to the folder. Default: Markdown, text, HTML and PDF files. */
  include?: readonly string[];
  /** Globs left out. */
  exclude?: readonly string[];
  /** Ignore files read in every folder (gitignore syntax). Default `.gitignore` and `.ragignore`. */
  ignoreFiles?: readonly string[];
  /** Files larger than this are skipped. Default 50 MB. */
  maxFileBytes?: number;
}

/** The default `include`. */
export const DEFAULT_INCLUDE = ['**/*.{md,markdown,mdx,txt,rst,html,htm,pdf}'];

/**
 * The files of a folder that `loadDirectory` loads, as `/`-separated paths relative to it, sorted:
 * matching `include`, not `exclude`, not ignored by an ignore file, not hidden (`.name`), not
 * through symbolic links, at most `maxFileBytes`.
 */
export async function listDirectory(dir: string, options: DirectoryLoadOptions = {}): Promise<string[]> {
  const include = (options.include ?? DEFAULT_INCLUDE).map(globToRegExp);
  const exclude = (options.exclude ?? []).map(globToRegExp);
  const ignoreNames = options.ignoreFiles ?? ['.gitignore', '.ragignore'];
  const maxBytes = options.maxFileBytes ?? 50 * 1024 * 1024;
  const rules = new IgnoreRules();
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const rel = relative(dir, folder).split(sep).join('/');
    for (const name of ignoreNames) {
      try {
        rules.add(await readFile(join(folder, name), 'utf8'), rel);
      } catch {
        // no ignore file here
      }
    }
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!rules.ignores(path, true)) await walk(join(folder, entry.name));
      } else if (entry.isFile()) {
        if (rules.ignores(path, false) || !include.some((re) => re.test(path)) || exclude.some((re) => re.test(path))) continue;
        if ((await stat(join(folder, entry.name))).size > maxBytes) continue;
        files.push(path);
      }
    }
  };
  await walk(dir);
  return files.sort();
}

/**
 * Loads the files of a folder (see {@link listDirectory}) with the loader of each extension;
 * `source` is the path relative to the folder (`guides/setup.md`).
 */
export async function loadDirectory(dir: string, options: DirectoryLoadOptions = {}): Promise<Document[]> {
  const out: Document[] = [];
  for (const path of await listDirectory(dir, options)) out.push(...(await loadFile(join(dir, path), { ...options, source: path })));
  return out;
}
