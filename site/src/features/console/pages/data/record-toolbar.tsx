import type { ConsoleEntity } from './console-entity';

/** RecordToolbarProps is the contract the Data page renders the toolbar with. */
export interface RecordToolbarProps {
  entity: ConsoleEntity;
  selectedIds: string[];
  filter: Record<string, unknown>;
  viewAs: string | null;
  onChanged: () => void;
}

/** RecordToolbar is a placeholder: create, delete-selected and CSV come in the records increment. */
export function RecordToolbar(props: RecordToolbarProps) {
  void props;
  return null;
}
