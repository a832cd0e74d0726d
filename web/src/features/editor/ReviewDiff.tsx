import { yaml } from '@codemirror/lang-yaml';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { useEffect, useRef, type ReactNode } from 'react';

/** Live object (left) against what the server's dry run says it becomes (right), read-only, changed lines marked. */
export function ReviewDiff({ before, after, labels }: { before: string; after: string; labels: { before: string; after: string } }): ReactNode {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const readOnly = (label: string) => [lineNumbers(), yaml(), EditorState.readOnly.of(true), EditorView.contentAttributes.of({ 'aria-label': label })];
    const view = new MergeView({
      a: { doc: before, extensions: readOnly(labels.before) },
      b: { doc: after, extensions: readOnly(labels.after) },
      parent: host.current ?? undefined,
      collapseUnchanged: { margin: 3, minSize: 6 },
    });
    return () => view.destroy();
  }, [before, after, labels.before, labels.after]);
  return (
    <div className="review-diff">
      <div className="review-diff-labels small muted" aria-hidden="true">
        <span>{labels.before}</span>
        <span>{labels.after}</span>
      </div>
      <div ref={host} />
    </div>
  );
}
