import { RE2JS } from 're2js';

/** Compiles a blocked pattern with RE2 semantics (linear-time matching); `^`/`$` match at line ends. Throws when invalid. */
export function compileBlockedPattern(source: string): RE2JS {
  return RE2JS.compile(source, RE2JS.MULTILINE);
}

/**
 * The configured blocked patterns, compiled once with re2js: matching time is linear in the text,
 * so no command line can stall the analysis (no backtracking).
 */
export class BlockedPatterns {
  private readonly compiled: { source: string; expression: RE2JS }[];

  /** Throws when a pattern is not a valid RE2 regular expression (the config schema checks this too). */
  constructor(patterns: readonly string[]) {
    this.compiled = patterns.map((source) => {
      try {
        return { source, expression: compileBlockedPattern(source) };
      } catch (error) {
        throw new Error(`invalid blocked pattern "${source}": ${(error as Error).message}`, { cause: error });
      }
    });
  }

  /**
   * The first pattern matching any of the texts, or undefined. The texts are matched as the lines of
   * one text (one pass per pattern); `^` and `$` match at each line's start and end.
   */
  match(...texts: readonly string[]): string | undefined {
    if (texts.length === 0 || this.compiled.length === 0) return undefined;
    const joined = texts.join('\n');
    return this.compiled.find((pattern) => pattern.expression.test(joined))?.source;
  }
}
