import type { ReactNode } from 'react';
import type { ResourceItem } from '../../api/types';
import { DataTable } from '../../shared/DataTable';
import { itemColumns, itemKey } from './item-columns';
import { sameTarget, type ResourceTarget } from './target';

interface ResourceTableProps {
  resource: string;
  columns: string[];
  items: ResourceItem[];
  selected: ResourceTarget | null;
  onOpen: (target: ResourceTarget) => void;
  caption: string;
}

/** The list as a table; the name is a button (keyboard), the whole row is clickable (mouse). */
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
  return (
    <DataTable
      columns={itemColumns(columns, nameCell)}
      rows={items}
      rowKey={itemKey}
      caption={caption}
      rowProps={(item) => ({ className: sameTarget(selected, targetOf(item)) ? 'selected' : undefined, onClick: () => onOpen(targetOf(item)) })}
    />
  );
}
