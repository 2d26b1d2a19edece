// Reads from a bundle's objects.json only what drift's DRA permission lines need (permission-inputs.ts):
// the RBAC objects, API server pods, node names and driver names, without parsing the 200,000 pods of
// a large cluster. objects-json.ts writes one object per line, each led by its apiVersion and kind;
// a line that does not start so is parsed whatever it is, and a file not laid out so is left to the
// ordinary parser (undefined).

const HEAD = '{"apiVersion":"v1","kind":"List","items":[';
const LEAD = /^\{"apiVersion":"[^"\\]*","kind":"([A-Za-z]+)"/;
const DRIVER = /"driver":"([^"\\]*)"/g;

/** Kinds whose objects are kept whole (parsed by the caller with the ordinary snapshot parser). */
const WHOLE = new Set(['ClusterInfo', 'Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

export interface PermissionLines {
  /** Object texts to parse: ClusterInfo, RBAC, the pods that may be API servers, and anything not led by its kind. */
  objects: string[];
  nodes: string[];
  drivers: string[];
}

function driversOf(value: unknown, kind: 'ResourceSlice' | 'ResourceClaim'): string[] {
  const o = value as { spec?: { driver?: unknown }; status?: { allocation?: { devices?: { results?: { driver?: unknown }[] } } } } | null;
  if (kind === 'ResourceSlice') return typeof o?.spec?.driver === 'string' ? [o.spec.driver] : [];
  const results = o?.status?.allocation?.devices?.results;
  return Array.isArray(results) ? results.flatMap((r) => (typeof r?.driver === 'string' ? [r.driver] : [])) : [];
}

/** Decoded this many bytes at a time (cut after a newline): the whole text of a large cluster is 240 MB. */
const SLICE_BYTES = 16 << 20;
const NEWLINE = 0x0a;

/**
 * undefined when the bytes are not laid out as objects-json.ts writes them. Decoded a slice of whole
 * lines at a time and read line by line; only the lines kept are parsed.
 */
export function permissionLinesOfObjectsJson(bytes: Uint8Array, sliceBytes = SLICE_BYTES): PermissionLines | undefined {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const head = `${HEAD}\n`;
  const tail = '\n]}\n';
  if (bytes.length < head.length + tail.length) return undefined;
  if (decoder.decode(bytes.subarray(0, head.length)) !== head || decoder.decode(bytes.subarray(bytes.length - tail.length)) !== tail) return undefined;
  const objects: string[] = [];
  const nodes: string[] = [];
  const drivers = new Set<string>();
  // The body: one object per line, each but the last followed by a comma, then the tail's newline.
  const bodyEnd = bytes.length - tail.length + 1;
  for (let from = head.length; from < bodyEnd;) {
    let to = bodyEnd;
    if (from + sliceBytes < bodyEnd) {
      const newline = bytes.subarray(from + sliceBytes, bodyEnd).indexOf(NEWLINE);
      if (newline >= 0) to = from + sliceBytes + newline + 1;
    }
    const text = decoder.decode(bytes.subarray(from, to));
    const lastSlice = to === bodyEnd;
    from = to;
    for (let at = 0; at < text.length;) {
      const end = text.indexOf('\n', at);
      if (end < 0) return undefined;
      const raw = text.slice(at, end);
      at = end + 1;
      const last = lastSlice && at === text.length;
      if (!last && !raw.endsWith(',')) return undefined;
      const line = last ? raw : raw.slice(0, -1);
      if (!line.startsWith('{') || !line.endsWith('}')) return undefined;
      const kind = LEAD.exec(line)?.[1];
      if (kind === undefined || WHOLE.has(kind)) objects.push(line);
      else if (kind === 'Pod') {
        // Only kube-system kube-apiserver-* pods count; a line with an escape is parsed to be sure.
        if (line.includes('kube-apiserver') || line.includes('\\')) objects.push(line);
      } else if (kind === 'Node') {
        const name = (JSON.parse(line) as { metadata?: { name?: unknown } }).metadata?.name;
        if (typeof name === 'string') nodes.push(name);
      } else if (kind === 'ResourceSlice' || kind === 'ResourceClaim') {
        // Every driver the object names appears as "driver":"…": when all are known, it adds none.
        if (!line.includes('\\') && [...line.matchAll(DRIVER)].every((m) => drivers.has(m[1]))) continue;
        for (const d of driversOf(JSON.parse(line), kind)) drivers.add(d);
      }
    }
  }
  return { objects, nodes, drivers: [...drivers] };
}
