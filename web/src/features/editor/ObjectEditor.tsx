import { lazy, useState, type ReactNode } from 'react';
import { useT } from '../../i18n';
import type { ResourceTarget } from '../../shared/resource-target';

// CodeMirror is its own chunk, loaded when Edit is first pressed.
const EditPanel = lazy(() => import('./EditPanel').then((module) => ({ default: module.EditPanel })));

/** The editor toolbar of one object, as its page and its drawer both carry it. */
export interface ObjectEditor {
  editing: boolean;
  /** Edit (for those who may write, while not editing). */
  editButton: ReactNode;
  /** What the last apply said (after the editor closed). */
  notice: ReactNode;
  /** The YAML editor (a lazy chunk: render it inside a Suspense). */
  panel: ReactNode;
}

/** Edit, the YAML editor it opens (review the server's dry run, then apply) and the notice it leaves on close. */
export function useObjectEditor(target: ResourceTarget, canEdit: boolean): ObjectEditor {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string>();
  return {
    editing,
    editButton: canEdit && !editing && (
      <button
        type="button"
        className="primary"
        onClick={() => {
          setNotice(undefined);
          setEditing(true);
        }}
      >
        {t('objects.edit')}
      </button>
    ),
    notice: notice && (
      <p className="notice notice-ok pad" role="status">
        {notice}
      </p>
    ),
    panel: (
      <EditPanel
        target={target}
        onClose={(message) => {
          setEditing(false);
          setNotice(message);
        }}
      />
    ),
  };
}
