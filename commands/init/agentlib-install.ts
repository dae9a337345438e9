import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { findPackageRoot } from '../../lib/config/package-root.js';
import type { AgentlibInstall } from './next-steps.js';

/**
 * How the tools written into `dir` get agentlib: whether `agentlib` already resolves from there
 * (the project installed it), and the checkout this CLI runs from, when it is one (not a copy
 * inside node_modules), for the install step.
 */
export function agentlibInstall(dir: string, packageRoot: string | undefined = findPackageRoot()): AgentlibInstall {
  let resolvable = false;
  try {
    createRequire(join(dir, 'noop.js')).resolve('agentlib');
    resolvable = true;
  } catch {
    // not installed where the project is
  }
  const checkout = packageRoot !== undefined && !packageRoot.split(sep).includes('node_modules') ? packageRoot : undefined;
  return { resolvable, checkout };
}
