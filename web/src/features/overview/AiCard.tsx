import type { ReactNode } from 'react';
import { Link } from '../../shared/router';
import { useT } from '../../i18n';
import { useApiQuery } from '../../shared/use-api-query';
import { Card, Stat } from './Stat';

/** The AI pilot: the LLM's reachability, provider and model, MCP servers connected. */
export function AiCard(): ReactNode {
  const t = useT();
  const health = useApiQuery('/api/health', { refetchInterval: 15_000 });
  const llm = useApiQuery('/api/settings/llm');
  const mcp = useApiQuery('/api/mcp/servers');
  const state = health.data?.llm;
  const connected = mcp.data?.items.filter((server) => server.status.phase === 'connected').length;
  return (
    <Card title={t('overview.ai')} id="overview-ai">
      <dl className="overview-facts">
        <dt>{t('overview.aiState')}</dt>
        <dd className={state === 'available' ? 'tone-good' : state === 'unavailable' ? 'tone-bad' : undefined}>{state ?? '…'}</dd>
        <dt>{t('overview.aiModel')}</dt>
        <dd>{llm.data ? `${llm.data.provider} · ${llm.data.model}` : '…'}</dd>
      </dl>
      <div className="stats">
        <Stat value={connected ?? '…'} label={t('overview.mcpConnected')} to="/admin/mcp" />
        <Stat value={mcp.data?.items.length ?? '…'} label={t('overview.mcpServers')} to="/admin/mcp" />
      </div>
      <Link to="/settings">{t('overview.aiSettings')}</Link>
    </Card>
  );
}
