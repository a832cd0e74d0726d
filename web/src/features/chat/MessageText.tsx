import type { ReactNode } from 'react';
import { answerBlocks, type Block, type Inline } from '@pilothouse/wire/markdown';

/** One inline run as React text nodes (never HTML): strong, emphasis, code, and http(s)/mailto links. */
function InlineRun({ inline }: { inline: Inline }): ReactNode {
  switch (inline.kind) {
    case 'strong':
      return <strong>{inline.text}</strong>;
    case 'emphasis':
      return <em>{inline.text}</em>;
    case 'code':
      return <code>{inline.text}</code>;
    case 'link':
      return (
        <a href={inline.href} target="_blank" rel="noopener noreferrer">
          {inline.text}
        </a>
      );
    default:
      return inline.text;
  }
}

const runs = (inlines: Inline[]): ReactNode[] => inlines.map((inline, index) => <InlineRun key={index} inline={inline} />);

function BlockView({ block }: { block: Block }): ReactNode {
  switch (block.kind) {
    case 'code':
      return <pre className="code">{block.text}</pre>;
    case 'heading':
      return <p className="message-heading">{runs(block.inlines)}</p>;
    case 'list': {
      const items = block.items.map((item, index) => <li key={index}>{runs(item)}</li>);
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    default:
      return <p>{runs(block.inlines)}</p>;
  }
}

/** Assistant text: its Markdown (a safe subset, docs in packages/wire/markdown.ts) drawn as elements, fenced blocks as code. */
export function MessageText({ content }: { content: string }): ReactNode {
  return (
    <div className="message-text">
      {answerBlocks(content).map((block, index) => (
        <BlockView key={index} block={block} />
      ))}
    </div>
  );
}
