import { Text } from 'ink';
import { fit } from './format.js';

interface Props {
  focus: 'tree' | 'detail';
  editing: boolean;
  width: number;
}

const TREE_KEYS = 'q quit · ↑↓/jk move · PgUp/PgDn Home/End · ←→/hl fold · Enter toggle · Tab details · e errors · t type · / search';
const DETAIL_KEYS = 'q quit · ↑↓/jk scroll details · PgUp/PgDn Home/End · Tab back to steps · e errors · t type · / search';
const EDIT_KEYS = 'type to search · Enter apply · Esc clear · Backspace delete';

/** The keys that work right now. */
export function HelpLine({ focus, editing, width }: Props) {
  const text = editing ? EDIT_KEYS : focus === 'detail' ? DETAIL_KEYS : TREE_KEYS;
  return (
    <Text dimColor wrap="truncate">
      {fit(text, width)}
    </Text>
  );
}
