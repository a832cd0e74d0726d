import type { Tool, ToolDefinition, ToolRegistry } from '../tools/types.js';

/**
 * The tools of one investigation run: the registry's tools named in `investigations.tools` (those that exist
 * right now, so the problems and PromQL tools join once registered) plus the run's own tools (`conclude`).
 * Read-only: nothing registers into it.
 */
export class InvestigationTools implements ToolRegistry {
  constructor(
    private readonly registry: Pick<ToolRegistry, 'get'>,
    private readonly names: readonly string[],
    private readonly own: readonly Tool[],
  ) {}

  list(): ToolDefinition[] {
    const offered = this.names.flatMap((name) => this.registry.get(name) ?? []);
    return [...offered, ...this.own].map((tool) => tool.definition);
  }

  get(name: string): Tool | undefined {
    const own = this.own.find((tool) => tool.definition.name === name);
    if (own) return own;
    return this.names.includes(name) ? this.registry.get(name) : undefined;
  }

  register(): void {
    throw new Error('the tools of an investigation are fixed');
  }

  unregister(): void {
    throw new Error('the tools of an investigation are fixed');
  }

  onChange(): () => void {
    return () => undefined;
  }
}
