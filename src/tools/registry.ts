import type { Tool, ToolDefinition, ToolRegistry } from './types.js';

/** In-memory tool registry: built-ins register at start, MCP servers add and remove theirs live. */
export class InMemoryToolRegistry implements ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly listeners = new Set<() => void>();

  list(): ToolDefinition[] {
    return [...this.tools.values()].map((tool) => tool.definition);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** Adds a tool; a name already taken is an error (callers prefix MCP tools to avoid clashes). */
  register(tool: Tool): void {
    if (this.tools.has(tool.definition.name)) {
      throw new Error(`tool "${tool.definition.name}" is already registered`);
    }
    this.tools.set(tool.definition.name, tool);
    this.notify();
  }

  unregister(name: string): void {
    if (this.tools.delete(name)) this.notify();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
