import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import type { Translate } from '../core/i18n.js';

export interface HeaderProps {
  t: Translate;
  context: string;
  /** The cluster the views show (ADR 0035); undefined until the service named it. */
  cluster?: string;
  health?: string;
  user?: string;
  role?: string;
  namespace: string | undefined;
  readonly: boolean;
  pendingRequests: number;
}

const healthColor = (health: string | undefined): string => (health === 'healthy' ? 'green' : health === undefined ? 'gray' : 'yellow');

/** The health value in the UI's language (`healthy` → `정상`); a value the catalogue does not know, as the service said it. */
export function healthWord(t: Translate, health: string | undefined): string {
  if (health === undefined) return '…';
  const key = `health.status.${health}`;
  const word = t(key);
  return word === key ? health : word;
}

/** Context, the cluster shown (bold), its health, user and role (and namespace, read-only mode, pending access requests). */
export function Header(props: HeaderProps): ReactElement {
  const { t } = props;
  return (
    <Box width="100%" overflow="hidden">
      <Text wrap="truncate">
        <Text bold color="cyan">
          Pilothouse
        </Text>
        {` ${t('tui.header.context')}: `}
        <Text bold>{props.context}</Text>
        {props.cluster === undefined ? null : (
          <>
            {` ${t('tui.header.cluster')}: `}
            <Text bold>{props.cluster}</Text>
          </>
        )}
        {` ${t('tui.header.health')}: `}
        <Text color={healthColor(props.health)}>{healthWord(t, props.health)}</Text>
        {` ${t('tui.header.user')}: `}
        <Text bold>{props.user ?? '…'}</Text>
        {` (${props.role ?? '…'})`}
        {` ${t('tui.header.namespace')}: ${props.namespace ?? t('tui.allNamespaces')}`}
        {props.readonly ? <Text color="yellow">{` ${t('tui.header.readonly')}`}</Text> : null}
        {props.pendingRequests > 0 ? <Text color="magenta">{` ${t('tui.header.pending', { count: props.pendingRequests })}`}</Text> : null}
      </Text>
    </Box>
  );
}
