import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../types.js';
import { truncationMarker } from './capped-output.js';
import { confinedReadPath, confinedWritePath } from './confined-path.js';
import { errorResult, inputSchemaOf, parseInput } from './tool-input.js';
import { ensureUserFolder } from './user-files.js';

/** Settings of the file tools. */
export interface FileToolOptions {
  /** Config `tools.files.root`: each user's files are in their own folder below it (user-files.ts). */
  root: string;
  /** Bytes returned by read_file at most (the rest is cut with a marker). */
  readLimit: number;
  /** Bytes write_file accepts at most. */
  writeLimit: number;
}

const readInput = z.object({ path: z.string().min(1).describe('File path relative to your file folder.') });
const writeInput = z.object({
  path: z.string().min(1).describe('File path relative to your file folder; missing folders are created.'),
  content: z.string().describe('The whole new content (UTF-8).'),
});

function failure(error: unknown): ToolResult {
  if ((error as NodeJS.ErrnoException).code === 'ELOOP') return errorResult('path is a symlink; write_file does not follow symlinks');
  return errorResult(error instanceof Error ? error.message : String(error));
}

async function readCapped(file: string, limit: number): Promise<ToolResult> {
  const handle = await open(file, constants.O_RDONLY);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return errorResult('not a regular file');
    const buffer = Buffer.alloc(Math.min(info.size, limit));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const truncated = info.size > limit;
    return { output: truncated ? text + truncationMarker(limit) : text, isError: false, truncated };
  } finally {
    await handle.close();
  }
}

/**
 * A file tool: its name is its command class and its command line (`<name> <path>`), a writing one is destructive;
 * its arguments are validated against `input` before `act` runs in the chat owner's folder, and a throw is a failed result.
 */
interface FileToolSpec<Input extends z.ZodObject> {
  name: 'read_file' | 'write_file';
  description: string;
  input: Input;
  writes: boolean;
}

function fileTool<Input extends z.ZodObject>(
  root: string,
  { name, description, input, writes }: FileToolSpec<Input>,
  act: (value: z.infer<Input>, folder: () => Promise<string>) => Promise<ToolResult>,
): Tool {
  return {
    definition: { name, description, inputSchema: inputSchemaOf(input), type: name, readOnly: !writes, destructive: writes },
    commandLine: (args) => `${name} ${String(args.path ?? '')}`,
    async run(args, context: ToolContext): Promise<ToolResult> {
      const parsed = parseInput(input, args);
      if (!parsed.ok) return parsed.result;
      try {
        return await act(parsed.value, () => ensureUserFolder(root, context.principal.username));
      } catch (error) {
        return failure(error);
      }
    },
  };
}

/** `read_file`: reads a UTF-8 file inside the chat owner's folder of the files root. */
export function createReadFileTool(options: FileToolOptions): Tool {
  const spec = { name: 'read_file', description: 'Read a text file inside your file folder.', input: readInput, writes: false } as const;
  return fileTool(options.root, spec, async (input, folder) => {
    const target = await confinedReadPath(await folder(), input.path);
    return target.ok ? await readCapped(target.path, options.readLimit) : errorResult(target.error);
  });
}

/** `write_file`: creates or replaces a file inside the chat owner's folder of the files root (never through a symlink). */
export function createWriteFileTool(options: FileToolOptions): Tool {
  const spec = { name: 'write_file', description: 'Create or overwrite a text file inside your file folder.', input: writeInput, writes: true } as const;
  return fileTool(options.root, spec, async (input, folder) => {
    const bytes = Buffer.byteLength(input.content);
    if (bytes > options.writeLimit) return errorResult(`content is ${bytes} bytes; the limit is ${options.writeLimit}`);
    const target = await confinedWritePath(await folder(), input.path);
    if (!target.ok) return errorResult(target.error);
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
    const handle = await open(target.path, flags, 0o600);
    await handle.writeFile(input.content).finally(() => handle.close());
    return { output: `wrote ${bytes} bytes to ${input.path}`, isError: false };
  });
}
