import type { ReactNode } from 'react';

/** Assistant text: plain paragraphs, with ``` fenced blocks shown as code. */
export function MessageText({ content }: { content: string }): ReactNode {
  const parts = content.split(/```[^\n]*\n?/);
  return (
    <div className="message-text">
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <pre key={index} className="code">
            {part.replace(/\n$/, '')}
          </pre>
        ) : (
          part && <p key={index}>{part}</p>
        ),
      )}
    </div>
  );
}
