/** The contract's command safety classes, plus `unknown` for programs the analyzer does not know. */
export type CommandClass = 'read' | 'write' | 'dangerous' | 'interactive' | 'unknown';

/** The contract's Safety report (internal to command analysis). */
export interface SafetyReport {
  command: string;
  type: CommandClass;
  requiresApproval: boolean;
  isDangerous: boolean;
  isInteractive: boolean;
  isReadOnly: boolean;
  blocked: boolean;
  /** The blocked pattern (regular expression source) that matched. */
  blockedBy?: string;
  /** Why the command is refused without asking (`blocked` is true): a one-line reason for the model and the audit log. */
  refusal?: string;
  warnings: string[];
}

/** Options of the analyzer: config `authorization.tool_approval`, camel-cased. */
export interface SafetyOptions {
  blockedPatterns: readonly string[];
  readonlyPrograms: readonly string[];
  requireApprovalUnknown: boolean;
  autoApproveReadonly: boolean;
  readonlyMcpTools: readonly string[];
  /** Config `tools.files.root`: local files kubectl may name must lie inside it (none may without it). */
  filesRoot?: string;
}

/** The class of one part of a command line (one simple command, one redirection...). */
export interface Verdict {
  type: CommandClass;
  warnings: string[];
  /** Why the command may not run at all (a flag or command off the allowlist, a file outside the root...). */
  refusal?: string;
}

/** One simple command as found in the syntax tree, words already reduced to text. */
export interface SimpleCommand {
  argv: ShellWord[];
  /** The command's standard input comes from a pipe. */
  pipeFed: boolean;
  /** Literal text of a here-document or here-string feeding the command, when there is one. */
  stdinText?: string;
}

/** A shell word reduced to text: `dynamic` when it holds an expansion known only at run time. */
export interface ShellWord {
  text: string;
  dynamic: boolean;
  /** A run-time expansion outside double quotes: the shell may split it into several words. */
  split?: boolean;
}
