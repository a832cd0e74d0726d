import { useEffect, useRef, type ReactNode } from 'react';
import { useT, type MessageKey } from '../../i18n';
import type { ChatState } from './chat-state';
import { MessageText } from './MessageText';
import { ToolCard } from './ToolCard';

/** The conversation, kept scrolled to the newest entry. */
export function ChatMessages({ state, onDecide }: { state: ChatState; onDecide: (id: string, approved: boolean) => void }): ReactNode {
  const t = useT();
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A block body: Chromium's scrollIntoView may return a promise, and an effect must not.
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [state.entries]);
  if (state.entries.length === 0) return <p className="muted chat-empty">{t('chat.empty')}</p>;
  return (
    <div className="chat-messages" role="log" aria-live="polite" aria-relevant="additions text">
      {state.entries.map((entry) => {
        switch (entry.kind) {
          case 'user':
            return (
              <div key={entry.key} className="message message-user">
                <span className="visually-hidden">{t('chat.you')}: </span>
                {entry.content}
              </div>
            );
          case 'assistant':
            return (
              <div key={entry.key} className="message message-assistant">
                <span className="visually-hidden">{t('chat.pilot')}: </span>
                <MessageText content={entry.content} />
              </div>
            );
          case 'tool':
            return <ToolCard key={entry.key} entry={entry} streaming={state.streaming} onDecide={onDecide} />;
          case 'error':
            return (
              <div key={entry.key} className="notice notice-error compact" role="alert">
                <span className="notice-code">{entry.code}</span> {entry.error}
              </div>
            );
          case 'usage':
            return (
              <p key={entry.key} className="muted small chat-usage">
                {t('chat.usage', {
                  input: entry.usage.inputTokens.toLocaleString(),
                  cached: entry.usage.cachedInputTokens.toLocaleString(),
                  output: entry.usage.outputTokens.toLocaleString(),
                  cost: entry.usage.cost.toFixed(4),
                })}
              </p>
            );
          case 'end':
            return (
              <p key={entry.key} className="muted small">
                {t(`chat.ended.${entry.reason}` as MessageKey)}
              </p>
            );
        }
      })}
      <div ref={end} />
    </div>
  );
}
