import { useState, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { formatTime } from '../../shared/time';
import { useApiQuery } from '../../shared/use-api-query';

/** The caller's chat sessions (`GET /api/chat/history`); pick one to continue it, or delete it. */
export function ChatHistoryList({ current, onPick }: { current?: string; onPick: (id: string) => void }): ReactNode {
  const client = useApi();
  const t = useT();
  const sessions = useApiQuery('/api/chat/history');
  const [error, setError] = useState<unknown>();

  const remove = async (id: string): Promise<void> => {
    try {
      await client.request('DELETE', '/api/chat/history', { query: { session_id: id } });
      void sessions.refetch();
    } catch (failure) {
      setError(failure);
    }
  };

  const items = sessions.data && 'items' in sessions.data ? sessions.data.items : [];
  return (
    <div className="chat-history">
      <ErrorNotice error={sessions.error ?? error} compact />
      {sessions.isPending && <p className="muted">{t('common.loading')}</p>}
      {sessions.data && items.length === 0 && <p className="muted">{t('chat.historyEmpty')}</p>}
      <ul>
        {items.map((item) => (
          <li key={item.id} className={item.id === current ? 'current' : undefined}>
            <button type="button" className="history-item" onClick={() => onPick(item.id)}>
              <span className="history-title">{item.title || item.id}</span>
              <span className="muted small">{formatTime(item.updatedAt)}</span>
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={t('chat.deleteSession', { title: item.title })}
              title={t('chat.deleteSession', { title: item.title })}
              onClick={() => void remove(item.id)}
            >
              <svg className="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
                <path fill="currentColor" d="M6 1h4l1 1h3v2H2V2h3zM3 5h10l-1 10H4zm3 2v6h1V7zm3 0v6h1V7z" />
              </svg>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
