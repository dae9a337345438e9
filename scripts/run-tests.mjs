#!/usr/bin/env node
// Runs every test/**/*.test.ts (or the files/dirs given) with node:test through tsx.
// Node 20's --test does not expand globs, so the file list is built here.
// Every test process loads scripts/no-network.mjs: a connection to a non-loopback host fails; and
// scripts/warning-guard.mjs: a process warning no test captured fails its test file.
// Before the tests, scripts/test-services.mjs starts a throwaway redis-server and PostgreSQL
// cluster on loopback (when installed) and passes their URLs on; both are stopped at the end.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startTestServices } from './test-services.mjs';

const root = process.cwd();
const args = process.argv.slice(2);
const roots = args.length > 0 ? args : ['test'];

/** @param {string} path @returns {string[]} */
function collect(path) {
  const stat = statSync(path);
  if (stat.isFile()) return [path];
  const out = [];
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'fixtures') continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) out.push(...collect(child));
    else if (/\.test\.tsx?$/.test(entry.name)) out.push(child);
  }
  return out;
}

const files = roots.flatMap(collect).map((file) => relative(root, file)).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(4);
}
const services = await startTestServices();
for (const note of services.notes) console.error(`test services: ${note}`);
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--import', new URL('./no-network.mjs', import.meta.url).href, '--import', new URL('./warning-guard.mjs', import.meta.url).href, '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
  { stdio: 'inherit', env: { ...process.env, ...services.env, NODE_ENV: 'test' } },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    child.kill(signal);
  });
}
child.on('exit', (code, signal) => {
  services.stop();
  process.exit(code ?? (signal ? 1 : 0));
});
