/**
 * The system packages beyond npm (packages/testkit/prerequisites.json, which scripts/prereqs.mjs
 * also reads): where a binary is missing, the message names it and the command that installs it.
 */
import { accessSync, constants as fsConstants, readFileSync } from 'node:fs';
import path from 'node:path';

interface Prerequisite {
  binary: string;
  package: string;
  env?: string;
  why: string;
}

const LIST = (
  JSON.parse(readFileSync(path.join(__dirname, '..', 'prerequisites.json'), 'utf8')) as {
    packages: Prerequisite[];
  }
).packages;

/** `command` as a path to an executable file, or looked up on PATH; null when not found. */
export function findExecutable(command: string): string | null {
  const candidates = command.includes('/')
    ? [command]
    : (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir || '.', command));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** How to install the Debian/Ubuntu package that provides `binary`. */
export function installHint(binary: string): string {
  const known = LIST.find((entry) => entry.binary === path.basename(binary));
  if (!known) return '';
  const alternative = known.env ? ` (or set ${known.env} to its path)` : '';
  return `Install it with \`sudo apt-get install -y ${known.package}\`${alternative}.`;
}

/** Throws at once, naming the binary and its package, when `command` cannot be run. */
export function requireExecutable(command: string, service = path.basename(command)): string {
  const found = findExecutable(command);
  if (!found) {
    throw new Error(
      `${service}: cannot start, "${command}" is not installed or not on PATH. ${installHint(command)}`.trim(),
    );
  }
  return found;
}
