import { realpathSync } from 'node:fs';
import path from 'node:path';

/** Config `mcp.allowed_commands` and `mcp.allowed_command_dirs`: what MCPServer objects may run. */
export interface CommandPolicy {
  /** Bare program names (looked up on the child's PATH), e.g. `npx`. */
  commands: readonly string[];
  /** Absolute folders: a command given as an absolute path must lie under one of them. */
  directories: readonly string[];
}

/** The real path when it exists (symlinks resolved), else the normalised path. */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function under(file: string, directory: string): boolean {
  const folder = realPath(directory);
  return file.startsWith(folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`);
}

/**
 * Why an MCPServer object's `spec.command` may not run on Pilothouse's host, or undefined when it
 * may: a bare name must be listed in `mcp.allowed_commands`; an absolute path must lie (after
 * resolving symlinks and `..`) under a folder of `mcp.allowed_command_dirs`; relative paths never run.
 */
export function commandRefusal(command: string, policy: CommandPolicy): string | undefined {
  if (!command.includes('/')) {
    if (policy.commands.includes(command)) return undefined;
    return `command "${command}" is not allowed (mcp.allowed_commands: ${policy.commands.join(', ') || 'none'})`;
  }
  if (!path.isAbsolute(command)) return `command "${command}" is a relative path; use a name from mcp.allowed_commands or an absolute path`;
  const file = realPath(command);
  if (policy.directories.some((directory) => under(file, directory))) return undefined;
  return `command "${command}" is not under a folder of mcp.allowed_command_dirs`;
}
