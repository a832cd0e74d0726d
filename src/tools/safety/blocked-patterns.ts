/** The configured blocked patterns, compiled once. */
export class BlockedPatterns {
  private readonly compiled: { source: string; expression: RegExp }[];

  /** Throws when a pattern is not a valid regular expression (the config schema checks this too). */
  constructor(patterns: readonly string[]) {
    this.compiled = patterns.map((source) => {
      try {
        return { source, expression: new RegExp(source) };
      } catch (error) {
        throw new Error(`invalid blocked pattern "${source}": ${(error as Error).message}`, { cause: error });
      }
    });
  }

  /** The first pattern matching any of the texts, or undefined. */
  match(...texts: readonly string[]): string | undefined {
    for (const text of texts) {
      const hit = this.compiled.find((pattern) => pattern.expression.test(text));
      if (hit) return hit.source;
    }
    return undefined;
  }
}
