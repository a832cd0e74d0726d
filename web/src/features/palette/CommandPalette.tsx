import { Command } from 'cmdk';
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Role } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { navigate } from '../../shared/router';
import { useT } from '../../i18n';
import { useApiQuery } from '../../shared/use-api-query';
import { nextTheme, storedTheme, storeTheme } from '../theme/theme';
import { exactKind, kindItems, pageItems, type PaletteItem } from './palette-items';
import { useObjectItems } from './use-object-items';
import { usePages } from './use-pages';
import './palette.css';

interface PaletteProps {
  role: Role;
  namespace: string;
  onClose: () => void;
}

const groups: PaletteItem['group'][] = ['pages', 'kinds', 'objects', 'actions'];

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
  const items = useMemo(() => [...pageItems(pages, role), ...kindItems(kindList ?? []), ...objects, ...actions], [pages, role, kindList, objects, actions]);

  const run = (item: PaletteItem): void => {
    onClose();
    if (item.to) navigate(item.to);
    else if (item.action === 'theme') storeTheme(nextTheme(storedTheme()));
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
        {groups.map((group) => (
          <Command.Group key={group} heading={t(`palette.group.${group}`)}>
            {items
              .filter((item) => item.group === group)
              .map((item) => (
                <Command.Item key={item.id} value={item.id} keywords={[item.label, ...item.keywords]} onSelect={() => run(item)}>
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
