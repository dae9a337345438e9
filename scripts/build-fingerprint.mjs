// The fingerprint of what `npm run build` compiles: a SHA-256 over the path and content of every
// file in the build's input directories and of the files that configure the build (package.json,
// the lockfile, the tsconfigs). The build writes it to dist/.build-fingerprint when it has
// finished; the `prepare` script builds only when dist/ has no fingerprint or another one.
// Why: npm runs `prepare` not only on `npm ci` but each time it installs the package from its own
// directory, which `npx agentlib …` in a checkout does on its first run (npm links the checkout
// into its npx cache): without the check, the first README command rebuilt dist/ (~15 s).
//   node scripts/build-fingerprint.mjs clear     before the build: a failed build is never up to date
//   node scripts/build-fingerprint.mjs write     after the build (npm run build does both)
//   node scripts/build-fingerprint.mjs prepare   npm run build unless dist/ is up to date
//   node scripts/build-fingerprint.mjs check     exit 0 when up to date, 1 when not
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
/** Directories whose files go into dist/ (sources, the launcher, the build scripts). */
export const BUILD_INPUT_DIRS = ['lib', 'cli', 'commands', 'tui', 'bin', 'scripts'];
/** Files that change what the build makes. */
export const BUILD_CONFIG_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
/** Where the build leaves the fingerprint of its inputs. */
export const FINGERPRINT_FILE = join('dist', '.build-fingerprint');
/** Outputs the launcher needs; a build without them is not up to date whatever its fingerprint. */
const REQUIRED_OUTPUTS = [join('dist', 'cli', 'main.js'), join('dist', 'cli', 'help', '80.txt')];

/** The fingerprint of the build inputs under `dir` (the repository root by default). */
export function buildFingerprint(dir = root) {
  const files = BUILD_CONFIG_FILES.filter((file) => existsSync(join(dir, file)));
  for (const input of BUILD_INPUT_DIRS) {
    const path = join(dir, input);
    if (!existsSync(path)) continue;
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(relative(dir, join(entry.parentPath, entry.name)));
    }
  }
  const hash = createHash('sha256');
  for (const file of files.map((name) => name.split(sep).join('/')).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(dir, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether dist/ was built from the current inputs. */
export function isBuildUpToDate(dir = root) {
  const stamp = join(dir, FINGERPRINT_FILE);
  if (!existsSync(stamp) || REQUIRED_OUTPUTS.some((output) => !existsSync(join(dir, output)))) return false;
  return readFileSync(stamp, 'utf8').trim() === buildFingerprint(dir);
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const mode = process.argv[2];
  if (mode === 'clear') {
    rmSync(join(root, FINGERPRINT_FILE), { force: true });
  } else if (mode === 'write') {
    writeFileSync(join(root, FINGERPRINT_FILE), `${buildFingerprint()}\n`);
  } else if (mode === 'check') {
    process.exitCode = isBuildUpToDate() ? 0 : 1;
  } else if (mode === 'prepare') {
    if (isBuildUpToDate()) {
      console.log('agentlib: dist/ is up to date with the sources (npm run build rebuilds it)');
    } else {
      const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
      process.exitCode = result.status ?? 1;
    }
  } else {
    console.error('usage: node scripts/build-fingerprint.mjs clear|write|check|prepare');
    process.exitCode = 2;
  }
}
