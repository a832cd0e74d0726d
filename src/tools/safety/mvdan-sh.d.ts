// Minimal typings for the parts of mvdan-sh (mvdan/sh compiled to JS with GopherJS) that the analyzer uses.
declare module 'mvdan-sh' {
  export interface ShellPosition {
    Offset(): number;
  }
  /** Any syntax node; fields depend on the node type reported by `syntax.NodeType`. */
  export interface ShellNode {
    Pos(): ShellPosition;
    End(): ShellPosition;
    [field: string]: unknown;
  }
  export interface ShellParser {
    Parse(source: string, name: string): ShellNode;
  }
  export interface ShellSyntax {
    NewParser(...options: unknown[]): ShellParser;
    NodeType(node: ShellNode): string;
    Walk(node: ShellNode, visit: (node: ShellNode | null) => boolean): void;
  }
  const shell: { syntax: ShellSyntax };
  export default shell;
}
