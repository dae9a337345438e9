// Headless Chromium for browser tests: Debian's `chromium` package driven by playwright-core.
// playwright-core never downloads a browser here; it launches the system binary.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Browser } from 'playwright-core';

const CANDIDATES = ['chromium', 'chromium-browser'];

/** The system Chromium binary (CHROMIUM_PATH, else `chromium` on PATH), or undefined when it is not installed. */
export function chromiumPath(): string | undefined {
  const configured = process.env['CHROMIUM_PATH'];
  if (configured !== undefined && configured !== '') return existsSync(configured) ? configured : undefined;
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    for (const name of CANDIDATES) {
      const path = join(dir, name);
      if (existsSync(path)) return path;
    }
  }
  return undefined;
}

/** Why a browser test cannot run (a skip reason), or undefined when Chromium is there. */
export function chromiumMissing(): string | undefined {
  return chromiumPath() === undefined ? 'no Chromium binary (install the Debian "chromium" package or set CHROMIUM_PATH); .ci/run installs it' : undefined;
}

/** Launches headless Chromium (no sandbox: CI containers run as root). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) throw new Error(chromiumMissing());
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}
