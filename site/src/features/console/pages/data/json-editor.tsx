import { lazy, Suspense } from 'react';
import type { JsonCodeEditorProps } from './json-code-editor';

// CodeMirror weighs more than the rest of the console's Data page: it is a separate chunk, fetched the first
// time a record's JSON tab opens.
const JsonCodeEditor = lazy(() => import('./json-code-editor'));

/** JsonEditor is the raw JSON editor, with a status line while its code loads. */
export function JsonEditor(props: JsonCodeEditorProps) {
  return (
    <Suspense
      fallback={
        <p role="status" className="text-gray-300">
          Loading the JSON editor…
        </p>
      }
    >
      <JsonCodeEditor {...props} />
    </Suspense>
  );
}
