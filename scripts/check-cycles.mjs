#!/usr/bin/env node
// Fails when the project's own modules import each other in a cycle (type-only imports included:
// DESIGN.md says "no import cycles"). Relative imports only; `.js` specifiers map to `.ts`/`.tsx`.
// Usage: node scripts/check-cycles.mjs [dir ...]   (default: lib cli commands tui)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const roots = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['lib', 'cli', 'commands', 'tui']).filter((d) => existsSync(d));

/** @param {string} dir @returns {string[]} */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [resolve(path)] : [];
  });
}

/** @param {string} from @param {string} specifier @returns {string | undefined} */
function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const files = roots.flatMap(sources);
/** @type {Map<string, string[]>} */
const graph = new Map();
for (const file of files) {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const deps = info.importedFiles.map((f) => resolveImport(file, f.fileName)).filter((d) => d !== undefined);
  graph.set(file, [...new Set(deps)]);
}

// Depth-first search with colours; every back edge closes a cycle.
const WHITE = 0, GREY = 1, BLACK = 2;
/** @type {Map<string, number>} */
const colour = new Map();
/** @type {string[]} */
const stack = [];
/** @type {Set<string>} */
const cycles = new Set();
/** @param {string} node */
function visit(node) {
  colour.set(node, GREY);
  stack.push(node);
  for (const dep of graph.get(node) ?? []) {
    const c = colour.get(dep) ?? WHITE;
    if (c === GREY) {
      const cycle = stack.slice(stack.indexOf(dep)).concat(dep).map((f) => relative(process.cwd(), f));
      cycles.add(cycle.join(' -> '));
    } else if (c === WHITE && graph.has(dep)) {
      visit(dep);
    }
  }
  stack.pop();
  colour.set(node, BLACK);
}
for (const file of graph.keys()) if ((colour.get(file) ?? WHITE) === WHITE) visit(file);

if (cycles.size > 0) {
  console.error(`Import cycles found (${cycles.size}):`);
  for (const cycle of cycles) console.error(`  ${cycle}`);
  process.exit(1);
}
console.log(`no import cycles in ${files.length} modules (${roots.join(', ')})`);
