'use client';

import { useState } from 'react';

/** Suggestions shown while typing: a datalist of 20,000 namespaces is no easier to search than a dropdown of them. */
const MAX_SUGGESTIONS = 50;

/**
 * The namespace filter as a searchable field: typing suggests the matching namespaces (with their
 * finding counts), and the filter applies once the text names a namespace exactly (or is empty).
 */
export function NamespaceFilter({
  value,
  namespaces,
  className,
  onChange,
  unit = { one: 'finding', many: 'findings' },
}: {
  value: string;
  namespaces: readonly { namespace: string; count: number }[];
  className: string;
  onChange: (namespace: string) => void;
  /** What the counts count (the quota page reuses the filter for its quotas and gaps). */
  unit?: { one: string; many: string };
}) {
  const [text, setText] = useState(value);
  // The filter changed from outside (the URL, "show every issue"): the field shows it (adjusted while rendering, not in an effect).
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  const needle = text.trim().toLowerCase();
  const suggestions = (needle ? namespaces.filter((n) => n.namespace.toLowerCase().includes(needle)) : namespaces).slice(0, MAX_SUGGESTIONS);
  const unknown = needle !== '' && !namespaces.some((n) => n.namespace === text.trim());
  return (
    <>
      <input
        id="filter-namespace"
        type="search"
        list="filter-namespace-options"
        autoComplete="off"
        className={className}
        placeholder={`All ${namespaces.length} namespaces`}
        aria-invalid={unknown || undefined}
        aria-describedby={unknown ? 'filter-namespace-note' : undefined}
        value={text}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          const name = next.trim();
          if (name === '' || namespaces.some((n) => n.namespace === name)) onChange(name);
        }}
      />
      <datalist id="filter-namespace-options">
        {suggestions.map((n) => (
          <option key={n.namespace} value={n.namespace}>
            {n.count} {n.count === 1 ? unit.one : unit.many}
          </option>
        ))}
      </datalist>
      {unknown && (
        <p id="filter-namespace-note" className="mt-1 text-xs text-amber-800">
          No {unit.one} names a namespace “{text.trim()}”{suggestions.length > 0 ? ': pick one of the suggestions' : ''}.
        </p>
      )}
    </>
  );
}
