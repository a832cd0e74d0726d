import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, foldGutter, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import type { Extension } from '@codemirror/state';
import { drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';

/**
 * Token colours as CSS variables (editor.css for light, theme.css for dark), so YAML keys stay readable on the dark
 * panel (the library's default style draws them dark blue on near-black).
 */
const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--code-key)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--code-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--code-literal)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--code-comment)', fontStyle: 'italic' },
  { tag: [tags.keyword, tags.meta, tags.typeName, tags.labelName], color: 'var(--code-keyword)' },
  { tag: [tags.punctuation, tags.separator, tags.bracket], color: 'var(--code-punctuation)' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

/** The editor's basics: line numbers, folding, undo history, the default keys (Tab stays with the page, so keyboards can leave). */
export function editorSetup(): Extension[] {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    foldGutter(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    syntaxHighlighting(highlight),
    keymap.of([...defaultKeymap, ...historyKeymap]),
  ];
}
