// A snapshot upload that takes seconds to parse: a YAML List of `count` pods (YAML parses at well
// under 1 MB/s here; 1,000 pods are ~0.25 MB). For the tests that check the parse stays off the
// event loop. `lastItem` replaces the last pod (a bad one makes the whole upload fail at the end).

export function podYaml(i: number): string {
  return `- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p-${i}\n    namespace: ns-${i % 5}\n  spec:\n    nodeName: node-${i % 3}\n    serviceAccountName: sa-${i % 4}\n    containers:\n    - name: c\n      image: registry.example/app:${i}\n      securityContext: {privileged: ${i % 2 === 0}}\n`;
}

export function podListYaml(count: number, lastItem?: string): string {
  const items = Array.from({ length: count }, (_, i) => (i === count - 1 && lastItem !== undefined ? lastItem : podYaml(i)));
  return `apiVersion: v1\nkind: List\nitems:\n${items.join('')}`;
}
