'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { nodeSearchQuery } from './node-queries';

/**
 * Any node by name: type part of it, pick a match (or press Enter on a full name). Thousands of
 * nodes never fit a dropdown, so matches come from the server, a few at a time. A listed name that
 * is typed in full, or pointed at, is fetched ahead (`onPrefetch`) so that picking it is quick.
 * Without JavaScript the form still opens the typed node.
 */
export function NodePicker({
  selected,
  nodeCount,
  opening,
  onChoose,
  onPrefetch,
}: {
  selected?: string;
  nodeCount: number;
  /** A node chosen whose panels are still on their way. */
  opening?: string;
  onChoose: (name: string) => void;
  onPrefetch: (name: string) => void;
}) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const listId = useId();
  useEffect(() => {
    const t = setTimeout(() => setQuery(text.trim()), 150);
    return () => clearTimeout(t);
  }, [text]);
  const { data, isFetching } = useQuery(nodeSearchQuery(query));
  const matches = query && data ? data.matches : [];
  const shown = open && matches.length > 0;
  const exact = matches.find((m) => m === query);
  useEffect(() => {
    if (exact) onPrefetch(exact);
  }, [exact, onPrefetch]);

  const go = (name: string) => {
    setOpen(false);
    setText('');
    setQuery('');
    setActive(-1);
    onChoose(name);
  };

  return (
    <form
      method="get"
      action="/nodes"
      role="search"
      aria-label="Node picker"
      className="relative w-full max-w-md"
      onSubmit={(e) => {
        e.preventDefault();
        const name = active >= 0 && matches[active] ? matches[active] : text.trim();
        if (name) go(name);
      }}
    >
      <label htmlFor="node-picker" className="mb-1 block text-xs font-medium text-slate-600">
        Find a node ({nodeCount.toLocaleString('en-US')} in this source)
      </label>
      <input
        id="node-picker"
        name="node"
        type="search"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={`${listId}-status`}
        value={text}
        placeholder={selected ? `showing ${selected}; type another name` : 'type part of a node name'}
        onChange={(e) => {
          setText(e.target.value);
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && matches.length) {
            e.preventDefault();
            setOpen(true);
            const next = (active + 1) % matches.length;
            setActive(next);
            onPrefetch(matches[next]);
          } else if (e.key === 'ArrowUp' && matches.length) {
            e.preventDefault();
            const next = active <= 0 ? matches.length - 1 : active - 1;
            setActive(next);
            onPrefetch(matches[next]);
          } else if (e.key === 'Escape') setOpen(false);
        }}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 font-mono text-sm shadow-sm"
      />
      <p id={`${listId}-status`} role="status" aria-live="polite" className="mt-1 min-h-4 text-xs text-slate-500">
        {opening
          ? `Opening ${opening}…`
          : query
            ? isFetching && !data
              ? 'Searching…'
              : data && data.total > matches.length
                ? `${data.total.toLocaleString('en-US')} nodes match; the first ${matches.length} are listed`
                : `${matches.length} match${matches.length === 1 ? '' : 'es'}`
            : ''}
      </p>
      {shown && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Matching nodes"
          className="absolute top-14 z-20 max-h-80 w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          {matches.map((name, i) => (
            <li
              key={name}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => onPrefetch(name)}
              onClick={() => go(name)}
              className={`cursor-pointer px-3 py-1.5 font-mono text-[13px] ${i === active ? 'bg-teal-50 text-teal-900' : 'text-slate-800 hover:bg-slate-50'}`}
            >
              {name}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
