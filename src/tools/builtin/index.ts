import type { Tool } from '../types.js';
import type { BashSandbox } from './bash-sandbox.js';
import { createBashTool } from './bash-tool.js';
import { createReadFileTool, createWriteFileTool } from './file-tools.js';
import { createKubectlTool } from './kubectl-tool.js';
import { createPromqlTool, type PromqlRunner } from './promql-tool.js';
import { createProblemsTool, type ProblemsReader } from './problems-tool.js';

/**
 * Options of the built-in tools (config `tools.*` plus the resolved kubectl binary). No kubeconfig:
 * tools reach the cluster only through the per-call policy proxy (`ToolContext.proxySession`).
 */
export interface BuiltinToolOptions {
  kubectlPath: string;
  /** Output cap in bytes (config `tools.output_limit`, default 64 KiB). */
  outputLimit: number;
  timeoutMs: number;
  /** The bash tool: per-session folders under `sandboxRoot`, every command inside `sandbox`. */
  bash: { enabled: boolean; sandboxRoot: string; sandbox: BashSandbox };
  /** Without a root the file tools are not offered. */
  files: { root?: string; writeLimit?: number };
  /** The promql tool's runner (src/prometheus, composed in src/app); without it the tool is not offered. */
  promql?: PromqlRunner;
  /** The live findings (src/problems); without it the problems tool is not offered. */
  problems?: ProblemsReader;
}

/** Default write cap of write_file. */
export const defaultWriteLimit = 1024 * 1024;

/**
 * The built-in tools to register: kubectl always; bash only when enabled (a disabled tool is not
 * offered to the model at all); read_file/write_file only when a file root is configured.
 */
export function createBuiltinTools(options: BuiltinToolOptions): Tool[] {
  const tools: Tool[] = [createKubectlTool(options)];
  if (options.problems) tools.push(createProblemsTool(options.problems));
  if (options.bash.enabled) {
    const { sandboxRoot, sandbox } = options.bash;
    tools.push(createBashTool({ enabled: true, sandboxRoot, sandbox, outputLimit: options.outputLimit, timeoutMs: options.timeoutMs }));
  }
  const root = options.files.root;
  if (root) {
    const fileOptions = { root, readLimit: options.outputLimit, writeLimit: options.files.writeLimit ?? defaultWriteLimit };
    tools.push(createReadFileTool(fileOptions), createWriteFileTool(fileOptions));
  }
  if (options.promql) tools.push(createPromqlTool({ runner: options.promql }));
  return tools;
}

export { createBashTool, type BashToolOptions } from './bash-tool.js';
export { BubblewrapSandbox, type BashSandbox, type SandboxStatus } from './bash-sandbox.js';
export { createReadFileTool, createWriteFileTool, type FileToolOptions } from './file-tools.js';
export { createKubectlTool, type KubectlToolOptions } from './kubectl-tool.js';
export { createProblemsTool, type ProblemsReader, type ProblemsRequest } from './problems-tool.js';
export { splitArguments, type ArgumentsResult } from './command-arguments.js';
export { createPromqlTool, type PromqlRunner, type PromqlToolQuery, type PromqlToolAnswer } from './promql-tool.js';
