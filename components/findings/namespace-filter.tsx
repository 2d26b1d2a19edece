'use client';

import { useMemo } from 'react';
import { SearchableFilter } from '@/components/ui/searchable-filter';

const NAMESPACE = { one: 'namespace', many: 'namespaces' };

/** The namespace filter (findings, quotas): a searchable field, not a dropdown of 20,000 namespaces. */
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
  const options = useMemo(() => namespaces.map((n) => ({ value: n.namespace, label: n.namespace, count: n.count })), [namespaces]);
  return <SearchableFilter id="filter-namespace" value={value} options={options} className={className} onChange={onChange} noun={NAMESPACE} unit={unit} />;
}
