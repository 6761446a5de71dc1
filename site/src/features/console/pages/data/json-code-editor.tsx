import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

// CodeMirror 6 for a record's raw JSON: loaded only when the JSON tab opens (its own chunk).

export interface JsonCodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  label: string;
  describedBy?: string;
  invalid: boolean;
}

// A light editor on the console's dark page: CodeMirror's default highlight colours are made for white
// and keep their contrast (WCAG AA) there.
const theme = EditorView.theme({
  '&': { backgroundColor: '#ffffff', color: '#111827', border: '1px solid #40197a', borderRadius: '0.25rem' },
  '&.cm-focused': { outline: '3px solid #ffe08a' },
  '.cm-content': { fontFamily: 'ui-monospace, monospace', caretColor: '#111827', minHeight: '12rem' },
  '.cm-gutters': { backgroundColor: '#f3f4f6', color: '#374151', border: 'none' },
  '.cm-scroller': { maxHeight: '50vh' },
});

/** JsonCodeEditor is an accessible CodeMirror JSON editor (its content a labelled multi-line textbox). */
export default function JsonCodeEditor({
  value,
  onChange,
  label,
  describedBy,
  invalid,
}: JsonCodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);

  useEffect(() => {
    if (!host.current) return;
    const attributes: Record<string, string> = { 'aria-label': label };
    if (describedBy) attributes['aria-describedby'] = describedBy;
    if (invalid) attributes['aria-invalid'] = 'true';
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          bracketMatching(),
          json(),
          syntaxHighlighting(defaultHighlightStyle),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of(attributes),
          theme,
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The document is the editor's own once it exists: a new value from outside replaces it below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [label, describedBy, invalid]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  return <div ref={host} />;
}
