import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { useChatDraft } from './use-chat-draft';
import { useAskedQuestions } from './ask-pilot';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { Spinner } from '../../shared/Spinner';
import { ChatHistoryList } from './ChatHistoryList';
import { ChatMessages } from './ChatMessages';
import { CommandPreview } from './CommandPreview';
import { useChat, type ChatContextValue } from './use-chat';
import { useCommandAnalysis } from './use-command-analysis';
import { useLlmState } from './use-llm-state';

interface ChatPanelProps {
  open: boolean;
  onToggle: () => void;
  context: ChatContextValue;
  /** The question the composer starts with when a finding is put in context (keyed by the finding). */
  draft?: { key: string; text: string };
  /** Removes the finding from the context (its chip's ×). */
  onDropFinding?: () => void;
}

/** The context chips under the conversation: namespace, resource, the finding asked about. */
function ContextChips({ context, onDropFinding }: { context: ChatContextValue; onDropFinding?: () => void }): ReactNode {
  const t = useT();
  return (
    <div className="chat-context small" data-testid="chat-context">
      <span className="muted">{t('chat.context')}:</span> {context.namespace && <span className="chip">ns/{context.namespace}</span>}
      {context.resource && <span className="chip">{context.resource}</span>}
      {context.finding && (
        <span className="chip chip-finding" data-testid="chat-context-finding">
          {t('problems.chip', { label: context.finding.label })}
          {onDropFinding && (
            <button type="button" className="chip-drop" aria-label={t('problems.chipDrop')} onClick={onDropFinding}>
              ×
            </button>
          )}
        </span>
      )}
      {!context.namespace && !context.resource && <span className="muted">{t('chat.contextNone')}</span>}
    </div>
  );
}

/** The composer's text: the draft of a newly focused finding replaces it once (adjusted while rendering, not in an effect). */
function useComposerText(draft: ChatPanelProps['draft']): [string, (text: string) => void] {
  // A half-typed question outlives the session: kept per user, restored after signing in again.
  const [message, setMessage] = useChatDraft();
  const [draftKey, setDraftKey] = useState<string>();
  if (draft && draft.key !== draftKey) {
    setDraftKey(draft.key);
    setMessage(draft.text);
  }
  return [message, setMessage];
}

/** The AI pilot on the right: conversation, tool approvals, command preview, chat history. */
export function ChatPanel({ open, onToggle, context, draft, onDropFinding }: ChatPanelProps): ReactNode {
  const t = useT();
  const chat = useChat();
  const [message, setMessage] = useComposerText(draft);
  const input = useRef<HTMLTextAreaElement>(null);
  // A newly focused finding puts the cursor in the composer, after its question.
  useEffect(() => {
    if (draft?.key) input.current?.focus();
  }, [draft?.key, open]);
  useAskedQuestions((question) => {
    setMessage(question);
    if (!open) onToggle();
    window.requestAnimationFrame(() => document.getElementById('chat-input')?.focus());
  });
  const [showHistory, setShowHistory] = useState(false);
  const [loadError, setLoadError] = useState<unknown>();
  const preview = useCommandAnalysis(message);
  const llm = useLlmState();

  const submit = (event?: FormEvent): void => {
    event?.preventDefault();
    const text = message.trim();
    if (!text || chat.state.streaming) return;
    chat.send(text, context);
    setMessage('');
  };
  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  const pick = (id: string): void => {
    setLoadError(undefined);
    chat.load(id).then(() => setShowHistory(false), setLoadError);
  };

  if (!open) {
    return (
      <aside className="chat-rail" aria-label={t('chat.title')}>
        <button type="button" className="rail-button" aria-expanded={false} aria-controls="chat-panel" onClick={onToggle} title={t('chat.expand')}>
          <span aria-hidden="true">✦</span>
          <span className="rail-label">{t('chat.title')}</span>
        </button>
      </aside>
    );
  }

  return (
    <aside id="chat-panel" className="chat-panel" aria-labelledby="chat-title">
      <header className="chat-header">
        <h2 id="chat-title">
          <span aria-hidden="true">✦</span> {t('chat.title')}
        </h2>
        <button
          type="button"
          className="small-button"
          onClick={() => {
            chat.reset();
            setShowHistory(false);
          }}
        >
          {t('chat.new')}
        </button>
        <button type="button" className="small-button" aria-pressed={showHistory} onClick={() => setShowHistory((value) => !value)}>
          {t('chat.history')}
        </button>
        <button
          type="button"
          className="icon-button"
          aria-expanded={true}
          aria-controls="chat-panel"
          onClick={onToggle}
          aria-label={t('chat.collapse')}
          title={t('chat.collapse')}
        >
          ⟩
        </button>
      </header>
      <ErrorNotice error={loadError} compact onDismiss={() => setLoadError(undefined)} />
      {llm === 'unconfigured' && (
        <p className="chat-hint muted small" role="note">
          {t('chat.noModel')}
        </p>
      )}
      <div className="chat-body">
        {showHistory ? <ChatHistoryList current={chat.state.sessionId} onPick={pick} /> : <ChatMessages state={chat.state} onDecide={chat.decide} />}
      </div>
      <form className="chat-composer" onSubmit={submit}>
        <ContextChips context={context} onDropFinding={onDropFinding} />
        <CommandPreview report={preview} />
        <label htmlFor="chat-input" className="visually-hidden">
          {t('chat.input')}
        </label>
        <textarea
          ref={input}
          id="chat-input"
          rows={3}
          value={message}
          placeholder={t('chat.placeholder')}
          onChange={(event) => setMessage(event.target.value)}
          onKeyDown={onKey}
        />
        <div className="composer-actions">
          {chat.state.streaming && <Spinner label={t('chat.streaming')} />}
          {chat.state.streaming ? (
            <button type="button" onClick={chat.stop}>
              {t('chat.stop')}
            </button>
          ) : (
            <button type="submit" className="primary" disabled={!message.trim()}>
              {t('chat.send')}
            </button>
          )}
        </div>
      </form>
    </aside>
  );
}
