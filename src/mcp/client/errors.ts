import { AppError } from '../../errors.js';

/** No connected MCP server advertises the tool (the contract's tool-not-found error). */
export class ToolNotFoundError extends AppError {
  constructor(readonly tool: string) {
    super('NOT_FOUND', `tool not found: "${tool}" is not advertised by any connected MCP server`, { tool });
  }
}

/** A server name already used by a definition from the other source (config file vs MCPServer object). */
export class NameClashError extends AppError {
  constructor(name: string, owner: string) {
    super(
      'VALIDATION_ERROR',
      `MCP server name "${name}" clashes with the server of that name from the ${owner === 'config' ? 'config file' : 'cluster (MCPServer object)'}`,
      { name, owner },
    );
  }
}
