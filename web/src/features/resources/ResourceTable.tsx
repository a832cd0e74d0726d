import type { ReactNode } from 'react';
import type { ResourceItem } from '../../api/types';
import { cellText, columnLabel, statusTone } from './columns';
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
  return (
    <div className="table-wrap">
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {columnLabel(column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const target: ResourceTarget = { resource, name: item.name, namespace: item.namespace };
            const isSelected = sameTarget(selected, target);
            return (
              <tr key={`${item.namespace ?? ''}/${item.name}`} className={isSelected ? 'selected' : undefined} onClick={() => onOpen(target)}>
                {columns.map((column) =>
                  column === 'name' ? (
                    <td key={column} className="cell-name">
                      <button
                        type="button"
                        className="link-button"
                        aria-pressed={isSelected}
                        onClick={(event) => {
                          event.stopPropagation();
                          onOpen(target);
                        }}
                      >
                        {item.name}
                      </button>
                    </td>
                  ) : (
                    <td key={column} className={statusTone(column, item[column])}>
                      {cellText(item[column])}
                    </td>
                  ),
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
