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

/** `read_file`: reads a UTF-8 file inside the chat owner's folder of the files root. */
export function createReadFileTool(options: FileToolOptions): Tool {
  return {
    definition: {
      name: 'read_file',
      description: 'Read a text file inside your file folder.',
      inputSchema: inputSchemaOf(readInput),
      type: 'read_file',
      readOnly: true,
      destructive: false,
    },
    commandLine: (args) => `read_file ${String(args.path ?? '')}`,
    async run(args, context: ToolContext): Promise<ToolResult> {
      const input = parseInput(readInput, args);
      if (!input.ok) return input.result;
      try {
        const target = await confinedReadPath(await ensureUserFolder(options.root, context.principal.username), input.value.path);
        return target.ok ? await readCapped(target.path, options.readLimit) : errorResult(target.error);
      } catch (error) {
        return failure(error);
      }
    },
  };
}

/** `write_file`: creates or replaces a file inside the chat owner's folder of the files root (never through a symlink). */
export function createWriteFileTool(options: FileToolOptions): Tool {
  return {
    definition: {
      name: 'write_file',
      description: 'Create or overwrite a text file inside your file folder.',
      inputSchema: inputSchemaOf(writeInput),
      type: 'write_file',
      readOnly: false,
      destructive: true,
    },
    commandLine: (args) => `write_file ${String(args.path ?? '')}`,
    async run(args, context: ToolContext): Promise<ToolResult> {
      const input = parseInput(writeInput, args);
      if (!input.ok) return input.result;
      const bytes = Buffer.byteLength(input.value.content);
      if (bytes > options.writeLimit) return errorResult(`content is ${bytes} bytes; the limit is ${options.writeLimit}`);
      try {
        const target = await confinedWritePath(await ensureUserFolder(options.root, context.principal.username), input.value.path);
        if (!target.ok) return errorResult(target.error);
        const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
        const handle = await open(target.path, flags, 0o600);
        await handle.writeFile(input.value.content).finally(() => handle.close());
        return { output: `wrote ${bytes} bytes to ${input.value.path}`, isError: false };
      } catch (error) {
        return failure(error);
      }
    },
  };
}
