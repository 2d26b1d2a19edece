'use client';

import { useState } from 'react';

/** Suggestions shown while typing: a datalist of 20,000 values is no easier to search than a dropdown of them. */
const MAX_SUGGESTIONS = 50;

export interface FilterOption {
  /** What the filter applies (a namespace, a subject's key). */
  value: string;
  /** What the field shows and the user types (the namespace, "ServiceAccount ns/name"). */
  label: string;
  count: number;
}

/**
 * A filter over thousands of values as a searchable field: typing suggests the matching values (with
 * their counts), and the filter applies once the text names one exactly (or is empty).
 */
export function SearchableFilter({
  id,
  value,
  options,
  className,
  onChange,
  noun,
  unit,
}: {
  id: string;
  value: string;
  options: readonly FilterOption[];
  className: string;
  onChange: (value: string) => void;
  /** What the values are ("namespace", "subject"), for the placeholder and the note on unknown text. */
  noun: { one: string; many: string };
  /** What the counts count. */
  unit: { one: string; many: string };
}) {
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;
  const [text, setText] = useState(() => labelOf(value));
  // The filter changed from outside (the URL, "show every issue"): the field shows it (adjusted while rendering, not in an effect).
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(labelOf(value));
  }
  const needle = text.trim().toLowerCase();
  const suggestions = (needle ? options.filter((o) => o.label.toLowerCase().includes(needle)) : options).slice(0, MAX_SUGGESTIONS);
  const unknown = needle !== '' && !options.some((o) => o.label === text.trim());
  return (
    <>
      <input
        id={id}
        type="search"
        list={`${id}-options`}
        autoComplete="off"
        className={className}
        placeholder={`All ${options.length.toLocaleString('en-US')} ${options.length === 1 ? noun.one : noun.many}`}
        aria-invalid={unknown || undefined}
        aria-describedby={unknown ? `${id}-note` : undefined}
        value={text}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          const label = next.trim();
          if (label === '') return onChange('');
          const hit = options.find((o) => o.label === label);
          if (hit) onChange(hit.value);
        }}
      />
      <datalist id={`${id}-options`}>
        {suggestions.map((o) => (
          <option key={o.value} value={o.label}>
            {o.count} {o.count === 1 ? unit.one : unit.many}
          </option>
        ))}
      </datalist>
      {unknown && (
        <p id={`${id}-note`} className="mt-1 text-xs text-amber-800">
          No {unit.one} names a {noun.one} “{text.trim()}”{suggestions.length > 0 ? ': pick one of the suggestions' : ''}.
        </p>
      )}
    </>
  );
}
