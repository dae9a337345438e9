import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import ts from 'typescript';
import { ensureCliBuilt, repoRoot } from '../support/cli-build.js';

// The published declarations must compile in a consumer project made with `tsc --init` (strict,
// module nodenext, `"types": []`, so no Node globals unless something asks for them), with
// skipLibCheck off so that errors inside agentlib's .d.ts files are reported. Node's types are
// hidden from the compiler entirely: a declaration of agentlib's that needs `NodeJS.*` or a
// `node:` module shows up as an error, whatever else the consumer has installed.

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
const specifiers = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'agentlib' : `agentlib/${key.slice(2)}`));
const HIDDEN = [`${sep}node_modules${sep}@types${sep}node`, `${sep}node_modules${sep}undici-types`];
const hidden = (path: string): boolean => HIDDEN.some((dir) => path.includes(dir));
/** agentlib/serve hands out node:http types and says so with `/// <reference types="node" />`. */
const NEEDS_NODE_TYPES = `${sep}dist${sep}lib${sep}serve${sep}`;
const asksForNodeTypes = (file: ts.SourceFile): boolean => file.fileName.includes(NEEDS_NODE_TYPES) && file.typeReferenceDirectives.some((ref) => ref.fileName === 'node');
/** "Cannot find type definition file for 'node'" or "Cannot find module 'node:…'". */
const isMissingNodeTypes = (d: ts.Diagnostic): boolean => d.code === 2688 || (d.code === 2307 && ts.flattenDiagnosticMessageText(d.messageText, ' ').includes("'node:"));

describe('published types', () => {
  let dir = '';
  before(() => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'agentlib-types-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repoRoot, join(dir, 'node_modules', 'agentlib'), 'dir');
    writeFileSync(join(dir, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
    const init = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '--init'], { cwd: dir, encoding: 'utf8' });
    assert.equal(init.status, 0, init.stdout + init.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('every subpath export compiles under the tsc --init defaults without Node types', () => {
    const imports = specifiers.map((specifier, i) => `import * as m${i} from '${specifier}';`);
    writeFileSync(join(dir, 'index.ts'), `${imports.join('\n')}\nexport const modules = [${specifiers.map((_, i) => `m${i}`).join(', ')}];\n`);
    const configFile = ts.readConfigFile(join(dir, 'tsconfig.json'), (path) => ts.sys.readFile(path));
    assert.equal(configFile.error, undefined);
    const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, dir);
    assert.equal(parsed.options.strict, true, 'tsc --init makes a strict project');
    assert.deepEqual(parsed.options.types, [], 'tsc --init includes no @types package by itself');
    const options: ts.CompilerOptions = { ...parsed.options, skipLibCheck: false, noEmit: true };
    const host = ts.createCompilerHost(options);
    host.fileExists = (path) => !hidden(path) && ts.sys.fileExists(path);
    host.directoryExists = (path) => !hidden(path) && ts.sys.directoryExists(path);
    const program = ts.createProgram([join(dir, 'index.ts')], options, host);

    const ours = program.getSourceFiles().filter((file) => !file.fileName.includes(`${sep}node_modules${sep}`) || file.fileName.includes(`${sep}dist${sep}lib${sep}`));
    assert.ok(ours.some((file) => file.fileName.endsWith(join('dist', 'lib', 'index.d.ts'))), 'agentlib is resolved through its exports');
    const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)])];
    const problems = diagnostics
      .filter((d) => !(d.file !== undefined && asksForNodeTypes(d.file) && isMissingNodeTypes(d)))
      .map((d) => `${d.file?.fileName ?? ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    assert.deepEqual(problems, []);
  });
});
