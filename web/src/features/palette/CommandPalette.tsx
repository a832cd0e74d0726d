import { Command } from 'cmdk';
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Role } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { navigate } from '../../shared/router';
import { useT } from '../../i18n';
import { useApiQuery } from '../../shared/use-api-query';
import { resolvedTheme, storedTheme, storeTheme } from '../theme/theme';
import { askPilot } from '../chat/ask-pilot';
import { exactKind, groupsInOrder, kindItems, pageItems, rankItems, withObjectActions, type ObjectActionLabels, type PaletteItem } from './palette-items';
import { useObjectItems } from './use-object-items';
import { usePages } from './use-pages';
import './palette.css';

interface PaletteProps {
  role: Role;
  namespace: string;
  onClose: () => void;
}

function useActionItems(): PaletteItem[] {
  const t = useT();
  return useMemo(
    () => [
      { id: 'action:theme', group: 'actions', label: t('palette.actionTheme'), keywords: ['dark', 'light', 'theme'], action: 'theme' },
      { id: 'action:install', group: 'actions', label: t('palette.actionInstall'), keywords: ['helm', 'install', 'chart'], to: '/helm/install' },
      { id: 'action:forward', group: 'actions', label: t('palette.actionForward'), keywords: ['port', 'forward'], to: '/port-forwards' },
      { id: 'action:report', group: 'actions', label: t('palette.actionReport'), keywords: ['report', 'pdf'], to: '/reports' },
      { id: 'action:logout', group: 'actions', label: t('palette.actionLogout'), keywords: ['logout', 'sign out'], action: 'logout' },
    ],
    [t],
  );
}

function useObjectActionLabels(): ObjectActionLabels {
  const t = useT();
  return useMemo(
    () => ({
      logs: (name) => t('palette.objectLogs', { name }),
      events: (name) => t('palette.objectEvents', { name }),
      ask: (name) => t('palette.objectAsk', { name }),
      question: (object) => t('palette.objectQuestion', { object }),
    }),
    [t],
  );
}

/** The command palette (ctrl-k / cmd-k): pages, every kind the cluster serves, objects, actions; `:pods` jumps k9s-style. */
export function CommandPalette({ role, namespace, onClose }: PaletteProps): ReactNode {
  const t = useT();
  const client = useApi();
  const [search, setSearch] = useState('');
  const kinds = useApiQuery('/api/k8s');
  const kindList = kinds.data?.items;
  const pages = usePages();
  const objects = useObjectItems(namespace, search);
  const actions = useActionItems();
  const labels = useObjectActionLabels();
  const items = useMemo(() => [...pageItems(pages, role), ...kindItems(kindList ?? []), ...objects, ...actions], [pages, role, kindList, objects, actions]);
  // Our own ranking (exact object names first, then names typed in full, …), objects with their actions.
  const groups = useMemo(() => groupsInOrder(withObjectActions(rankItems(items, search), labels)), [items, search, labels]);

  const run = (item: PaletteItem): void => {
    onClose();
    if (item.to) navigate(item.to);
    if (item.action === 'ask' && item.question) askPilot(item.question);
    // From the palette ("dark", "theme"): the other scheme than the one shown, at once.
    else if (item.action === 'theme') storeTheme(resolvedTheme(storedTheme()) === 'dark' ? 'light' : 'dark');
    else if (item.action === 'logout') void client.logout().then((url) => url && window.location.assign(url));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    const kind = event.key === 'Enter' ? exactKind(search, kindList ?? []) : undefined;
    if (!kind) return;
    event.preventDefault();
    const item = kindItems(kindList ?? []).find((candidate) => candidate.id === `kind:${kind.group}/${kind.plural}`);
    if (item) run(item);
  };

  return (
    <Command.Dialog
      open
      shouldFilter={false}
      onOpenChange={(open) => !open && onClose()}
      label={t('palette.label')}
      className="palette"
      overlayClassName="palette-overlay"
      contentClassName="palette-content"
    >
      <Command.Input
        value={search}
        onValueChange={setSearch}
        onKeyDown={onKeyDown}
        placeholder={t('palette.placeholder')}
        aria-label={t('palette.placeholder')}
      />
      <Command.List label={t('palette.results')}>
        <Command.Empty>{t('palette.empty')}</Command.Empty>
        {groups.map(([group, entries]) => (
          <Command.Group key={group} heading={t(`palette.group.${group}`)}>
            {entries.map((item) => (
              <Command.Item key={item.id} value={item.id} onSelect={() => run(item)}>
                <span>{item.label}</span>
                {item.hint && <span className="palette-hint">{item.hint}</span>}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
      </Command.List>
    </Command.Dialog>
  );
}
