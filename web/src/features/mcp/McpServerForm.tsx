import { useState, type ReactNode } from 'react';
import { TextField } from '../../shared/TextField';
import { useSubmit } from '../../shared/use-submit';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import type { McpDraft } from './mcp-types';

interface FormProps {
  initial: McpDraft;
  editing: boolean;
  onSubmit: (draft: McpDraft) => Promise<void>;
  onCancel: () => void;
}

/** Add or edit one MCP server: name (fixed when editing), command, one argument per line, KEY=value env lines. */
export function McpServerForm({ initial, editing, onSubmit, onCancel }: FormProps): ReactNode {
  const t = useT();
  const [draft, setDraft] = useState(initial);
  const { busy, error, submit } = useSubmit(() => onSubmit(draft));
  const field = (key: keyof McpDraft) => (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value });
  const value = (key: keyof McpDraft) => (text: string) => setDraft({ ...draft, [key]: text });
  return (
    <form className="card form-grid mcp-form" onSubmit={submit} aria-label={editing ? t('mcp.editTitle', { name: draft.name }) : t('mcp.addTitle')}>
      <h2>{editing ? t('mcp.editTitle', { name: draft.name }) : t('mcp.addTitle')}</h2>
      <TextField label={t('mcp.name')} value={draft.name} onValue={value('name')} required disabled={editing} pattern="[a-z0-9]([\-a-z0-9]*[a-z0-9])?" />
      <TextField label={t('mcp.command')} value={draft.command} onValue={value('command')} required placeholder="npx" />
      <label className="field">
        <span>{t('mcp.args')}</span>
        <textarea value={draft.args} onChange={field('args')} rows={3} placeholder={'-y\n@modelcontextprotocol/server-everything'} />
      </label>
      <label className="field">
        <span>{t('mcp.env')}</span>
        <textarea value={draft.env} onChange={field('env')} rows={2} placeholder="API_TOKEN=…" />
      </label>
      <TextField label={t('mcp.description')} value={draft.description} onValue={value('description')} />
      <label className="checkbox-field">
        <input type="checkbox" checked={draft.enabled} onChange={(event) => setDraft({ ...draft, enabled: event.target.checked })} />
        <span>{t('mcp.enabled')}</span>
      </label>
      <ErrorNotice error={error} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          {t('mcp.cancel')}
        </button>
        <button type="submit" className="primary" disabled={busy}>
          {editing ? t('mcp.save') : t('mcp.add')}
        </button>
      </div>
    </form>
  );
}
