import { yamlLanguage } from '@codemirror/lang-yaml';

type Tree = ReturnType<typeof yamlLanguage.parser.parse>;
type SyntaxNode = Tree['topNode'];

/** Parses YAML text with the editor's own parser (Lezer, error-tolerant). */
export function parseYaml(text: string): Tree {
  return yamlLanguage.parser.parse(text);
}

/** A YAML value with where it sits in the text: a mapping, a sequence or a scalar. */
export type YamlNode =
  | { kind: 'map'; from: number; to: number; entries: YamlEntry[] }
  | { kind: 'seq'; from: number; to: number; items: YamlNode[] }
  | { kind: 'scalar'; from: number; to: number; value: string; quoted: boolean };

export interface YamlEntry {
  key: string;
  from: number;
  to: number;
  value: YamlNode | undefined;
}

/** A place the YAML parser could not read. */
export interface SyntaxProblem {
  from: number;
  to: number;
}

const punctuation = new Set([':', '-', ',', '{', '}', '[', ']', '?', 'Comment', 'Anchor', 'Tag']);

function unquote(text: string): string {
  if (text.startsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      return text.slice(1, -1);
    }
  }
  return text.startsWith("'") ? text.slice(1, -1).replace(/''/g, "'") : text;
}

function children(node: SyntaxNode): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) found.push(child);
  return found;
}

/** The value inside a Pair (after the key), an Item, a Document, or a Tagged/Anchored wrapper. */
function valueIn(nodes: SyntaxNode[], text: string): YamlNode | undefined {
  const node = nodes.find((child) => !punctuation.has(child.name) && child.name !== 'Key' && !child.type.isError);
  return node ? toYaml(node, text) : undefined;
}

function entryOf(pair: SyntaxNode, text: string): YamlEntry | undefined {
  const key = pair.getChild('Key');
  if (!key) return undefined;
  const raw = text.slice(key.from, key.to).trim();
  return { key: unquote(raw), from: key.from, to: key.from + raw.length, value: valueIn(children(pair), text) };
}

function toYaml(node: SyntaxNode, text: string): YamlNode | undefined {
  switch (node.name) {
    case 'BlockMapping':
    case 'FlowMapping':
      return { kind: 'map', from: node.from, to: node.to, entries: node.getChildren('Pair').flatMap((pair) => entryOf(pair, text) ?? []) };
    case 'BlockSequence':
    case 'FlowSequence':
      return { kind: 'seq', from: node.from, to: node.to, items: node.getChildren('Item').flatMap((item) => valueIn(children(item), text) ?? []) };
    case 'Literal':
      return { kind: 'scalar', from: node.from, to: node.to, value: text.slice(node.from, node.to), quoted: false };
    case 'QuotedLiteral':
    case 'BlockLiteral':
      return { kind: 'scalar', from: node.from, to: node.to, value: unquote(text.slice(node.from, node.to)), quoted: true };
    default:
      return valueIn(children(node), text);
  }
}

/** The first document of a parsed YAML text as a value tree (undefined when it is empty). */
export function documentOf(tree: Tree, text: string): YamlNode | undefined {
  const document = tree.topNode.getChild('Document');
  return document ? valueIn(children(document), text) : undefined;
}

/** Every error node of the parse (where the text is not YAML). */
export function syntaxProblems(tree: Tree): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) problems.push({ from: node.from, to: Math.max(node.to, node.from + 1) });
    },
  });
  return problems;
}
