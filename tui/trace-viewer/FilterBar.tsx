import { Text } from 'ink';
import { displayWidth } from '../../lib/core/display-width.js';
import type { TreeFilter } from './tree-model.js';
import { fit } from './format.js';

interface Props {
  filter: TreeFilter;
  /** The `/` prompt's text while it is open. */
  draft: string | undefined;
  shown: number;
  total: number;
  width: number;
}

/** The active filters and the row count, or the `/` prompt while typing. */
export function FilterBar({ filter, draft, shown, total, width }: Props) {
  if (draft !== undefined) {
    return (
      <Text wrap="truncate">
        <Text color="cyan">/</Text>
        {draft}
        <Text inverse> </Text>
        <Text dimColor>{fit('  Enter apply · Esc clear', Math.max(0, width - displayWidth(draft) - 2))}</Text>
      </Text>
    );
  }
  const parts = [`type: ${filter.type ?? 'all'}`, `errors only: ${filter.errorsOnly ? 'on' : 'off'}`, `text: ${filter.text === '' ? '—' : `"${filter.text}"`}`];
  const count = `${shown}/${total} steps`;
  const active = filter.errorsOnly || filter.type !== undefined || filter.text !== '';
  return (
    <Text wrap="truncate" {...(active ? { color: 'yellow' } : {})} dimColor={!active}>
      {fit(`filter ${parts.join(' · ')} · ${count}`, width)}
    </Text>
  );
}
