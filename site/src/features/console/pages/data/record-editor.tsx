import type { ConsoleEntity } from './console-entity';

/** RecordEditorProps is the contract the Data page renders the editor with. */
export interface RecordEditorProps {
  entity: ConsoleEntity;
  record: Record<string, unknown> | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: () => void;
}

/** RecordEditor is a placeholder: the schema form and JSON editor come in the records increment. */
export function RecordEditor(props: RecordEditorProps) {
  void props;
  return null;
}
