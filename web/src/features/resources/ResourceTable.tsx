import type { ReactNode } from 'react';
import type { ResourceItem } from '@pilothouse/wire/types';
import { VirtualTable } from '../../shared/VirtualTable';
import { itemColumns, itemKey } from '../../shared/item-columns';
import { sameTarget, type ResourceTarget } from '../../shared/resource-target';

interface ResourceTableProps {
  resource: string;
  columns: string[];
  items: ResourceItem[];
  selected: ResourceTarget | null;
  onOpen: (target: ResourceTarget) => void;
  caption: string;
}

/** The list as a virtualized table; the name is a button (keyboard), the whole row is clickable, j/k + Enter move and open. */
export function ResourceTable({ resource, columns, items, selected, onOpen, caption }: ResourceTableProps): ReactNode {
  const targetOf = (item: ResourceItem): ResourceTarget => ({ resource, name: item.name, namespace: item.namespace });
  const nameCell = (item: ResourceItem): ReactNode => (
    <button
      type="button"
      className="link-button"
      aria-pressed={sameTarget(selected, targetOf(item))}
      onClick={(event) => {
        event.stopPropagation();
        onOpen(targetOf(item));
      }}
    >
      {item.name}
    </button>
  );
  const selectedKey = selected ? itemKey({ name: selected.name, namespace: selected.namespace } as ResourceItem) : undefined;
  return (
    <VirtualTable
      columns={itemColumns(columns, nameCell)}
      rows={items}
      rowKey={itemKey}
      caption={caption}
      selectedKey={selectedKey}
      onOpen={(item) => onOpen(targetOf(item))}
    />
  );
}
