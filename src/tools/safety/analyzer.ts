import path from 'node:path';
import { BlockedPatterns } from './blocked-patterns.js';
import { classifyKubectlCommand } from './kubectl-refused-class.js';
import { LineClassifier, type Finding } from './line-classifier.js';
import { splitPlainWords } from './plain-words.js';
import { verdict } from './severity.js';
import type { SafetyOptions, SafetyReport } from './types.js';

/** Config `authorization.tool_approval` as parsed by the config schema (snake_case keys). */
export interface ToolApprovalConfig {
  blocked_patterns: readonly string[];
  readonly_programs: readonly string[];
  require_approval_unknown: boolean;
  auto_approve_readonly: boolean;
  readonly_mcp_tools: readonly string[];
}

/**
 * Maps config `authorization.tool_approval` to analyzer options; `filesRoot` is config
 * `tools.files.root` (local files named on kubectl command lines must lie inside it).
 */
export function safetyOptionsFromConfig(config: ToolApprovalConfig, filesRoot?: string): SafetyOptions {
  const options: SafetyOptions = {
    blockedPatterns: config.blocked_patterns,
    readonlyPrograms: config.readonly_programs,
    requireApprovalUnknown: config.require_approval_unknown,
    autoApproveReadonly: config.auto_approve_readonly,
    readonlyMcpTools: config.readonly_mcp_tools,
  };
  if (filesRoot) options.filesRoot = path.resolve(filesRoot);
  return options;
}

/** Tools whose command is the argument list of a program: the program name is prepended before parsing. */
const programTools = new Set(['helm']);

/** The kubectl tool's command: arguments after `kubectl` (a leading `kubectl` word is dropped, as the tool does). */
function kubectlWords(command: string): string[] | string {
  const split = splitPlainWords(command);
  if (!split.ok) {
    return split.problem === 'syntax'
      ? 'the command could not be split into words (unbalanced quotes?)'
      : 'the kubectl tool runs one plain command: pipes, redirections, `;`, `&&`, variables and `$(...)` need the bash tool';
  }
  return split.words[0] === 'kubectl' ? split.words.slice(1) : split.words;
}

/** String values anywhere inside an MCP argument object (bounded depth); string arrays also joined as argv. */
function stringValues(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return [value];
  if (depth > 16 || value === null || typeof value !== 'object') return [];
  const nested = Object.values(value).flatMap((item) => stringValues(item, depth + 1));
  const isArgv = Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string');
  return isArgv ? [value.join(' '), ...nested] : nested;
}

/**
 * Command safety analysis (the contract's "Command safety classes"). Classes rank
 * read < write = unknown < interactive < dangerous; a line's class is its most severe part; on a
 * write/unknown tie `write` is reported. A blocked pattern or refusal sets `blocked` (and asks nothing: the
 * command never runs) but leaves the class what the command is.
 */
export class SafetyAnalyzer {
  private readonly patterns: BlockedPatterns;
  private readonly classifier: LineClassifier;
  private readonly readonlyMcpTools: ReadonlySet<string>;
  private readonly options: SafetyOptions;

  /** Throws when a blocked pattern is not a valid regular expression. */
  constructor(options: SafetyOptions) {
    this.options = options;
    this.patterns = new BlockedPatterns(options.blockedPatterns);
    this.classifier = new LineClassifier(this.patterns, new Set(options.readonlyPrograms), { filesRoot: options.filesRoot });
    this.readonlyMcpTools = new Set(options.readonlyMcpTools);
  }

  /**
   * Analyzes a tool's command. `kubectl`/`helm`: the arguments after the program (a leading program
   * name is accepted too); `bash` and any other tool: a shell line; `read_file` is read, `write_file` write.
   */
  async analyze(tool: string, command: string): Promise<SafetyReport> {
    return this.analyzeSync(tool, command);
  }

  /** Synchronous form of {@link analyze}. */
  analyzeSync(tool: string, command: string): SafetyReport {
    if (tool === 'read_file' || tool === 'write_file') {
      const type = tool === 'read_file' ? 'read' : 'write';
      return this.report(command, { verdict: verdict(type), blockedBy: this.patterns.match(command) });
    }
    if (tool === 'kubectl') return this.analyzeKubectl(command);
    // A PromQL query reads (the caller's view is enforced inside it, src/prometheus); blocked patterns still hold.
    if (tool === 'promql') return this.report(`promql ${command}`, { verdict: verdict('read'), blockedBy: this.patterns.match(command) });
    // The problems tool reads the service's findings only (src/tools/builtin/problems-tool.ts).
    if (tool === 'problems') return this.report(command, { verdict: verdict('read') });
    const line = programTools.has(tool) && !new RegExp(`^\\s*${tool}(\\s|$)`).test(command) ? `${tool} ${command}` : command;
    return this.report(line, this.classifier.classifyLine(line));
  }

  /**
   * The kubectl tool: its command is split like the tool splits it (one plain command, no shell)
   * and read with kubectl's own grammar; blocked patterns see the line, the argv and the parsed forms.
   */
  private analyzeKubectl(command: string): SafetyReport {
    const line = /^\s*kubectl(\s|$)/.test(command) ? command : `kubectl ${command}`;
    const words = kubectlWords(command);
    if (typeof words === 'string') {
      // What the line is, read as the shell would (the kubectl tool runs no shell, so it is refused).
      const asShell = this.classifier.classifyLine(line).verdict;
      const refused = { type: asShell.type, warnings: [`refused: ${words}`, ...asShell.warnings], refusal: words };
      return this.report(line, { verdict: refused, blockedBy: this.patterns.match(line) });
    }
    const found = classifyKubectlCommand(
      words.map((text) => ({ text, dynamic: false })),
      { filesRoot: this.options.filesRoot },
    );
    const blockedBy = this.patterns.match(line, ['kubectl', ...words].join(' '), ...found.patternTexts);
    return this.report(line, blockedBy === undefined ? { verdict: found.verdict } : { verdict: found.verdict, blockedBy });
  }

  /**
   * Analyzes an MCP tool call: read-only only when the tool is listed in `readonly_mcp_tools` (as
   * `tool` or `server/tool`), otherwise unknown. Blocked patterns see `tool + ' ' + JSON(args)` and
   * every string argument.
   */
  analyzeMcp(server: string, toolName: string, args: Record<string, unknown>): SafetyReport {
    const json = JSON.stringify(args);
    const blockedBy = this.patterns.match(`${toolName} ${json}`, ...stringValues(args));
    const readOnly = this.readonlyMcpTools.has(toolName) || this.readonlyMcpTools.has(`${server}/${toolName}`);
    const found = readOnly ? verdict('read') : verdict('unknown', `MCP tool "${server}/${toolName}" is not listed as read-only`);
    return this.report(`mcp ${server} ${toolName} ${json}`, { verdict: found, blockedBy });
  }

  private requiresApproval(type: SafetyReport['type']): boolean {
    if (type === 'read') return !this.options.autoApproveReadonly;
    if (type === 'unknown') return this.options.requireApprovalUnknown;
    return true;
  }

  private report(command: string, finding: Finding): SafetyReport {
    const { refusal } = finding.verdict;
    // A refusal or blocked pattern is a fact of its own: the class stays what the command is (issue 26).
    const blocked = finding.blockedBy !== undefined || refusal !== undefined;
    const { type } = finding.verdict;
    const warnings = finding.blockedBy !== undefined ? [`blocked by pattern ${finding.blockedBy}`, ...finding.verdict.warnings] : finding.verdict.warnings;
    const report: SafetyReport = {
      command,
      type,
      requiresApproval: blocked || this.requiresApproval(type),
      isDangerous: type === 'dangerous',
      isInteractive: type === 'interactive',
      isReadOnly: type === 'read',
      blocked,
      warnings,
    };
    if (finding.blockedBy !== undefined) report.blockedBy = finding.blockedBy;
    if (refusal !== undefined) report.refusal = refusal;
    return report;
  }
}
