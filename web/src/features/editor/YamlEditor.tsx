import { yaml } from '@codemirror/lang-yaml';
import { forceLinting, linter, lintGutter } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { editorSetup } from './editor-setup';
import { useEffect, useRef, type ReactNode } from 'react';
import { useT } from '../../i18n';
import type { KindSchemas } from './schema-check';
import { lintYaml } from './yaml-lint';

interface YamlEditorProps {
  initial: string;
  onChange: (text: string) => void;
  schemas: KindSchemas | undefined;
  label: string;
}

/** CodeMirror 6 with YAML highlighting and validation (syntax, then the kind's OpenAPI schema from the API server). */
export function YamlEditor({ initial, onChange, schemas, label }: YamlEditorProps): ReactNode {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const schemaRef = useRef(schemas);
  const changeRef = useRef(onChange);
  const syntax = t('objects.editor.syntaxError');

  useEffect(() => {
    changeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const editor = new EditorView({
      doc: initial,
      parent: host.current ?? undefined,
      extensions: [
        editorSetup(),
        yaml(),
        lintGutter(),
        linter((current) => lintYaml(current.state.doc.toString(), schemaRef.current, { syntax }), { delay: 300 }),
        EditorView.updateListener.of((update) => update.docChanged && changeRef.current(update.state.doc.toString())),
        // tabindex: keyboards (and checkers) see the scrolling editor as focusable, like any field.
        EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
      ],
    });
    view.current = editor;
    return () => editor.destroy();
  }, [initial, label, syntax]);

  useEffect(() => {
    schemaRef.current = schemas;
    if (view.current) forceLinting(view.current);
  }, [schemas]);

  return <div ref={host} className="yaml-editor" />;
}
