// Which "simulate this write" an explorer address asks for: a who-can row's subject (simKind,
// simName, simNamespace) and the question's request. The page's server render and the simulator in
// the browser compare it to know whether the form holds that row's write or must fetch it.

const KEY_PARAMS = ['simKind', 'simName', 'simNamespace', 'mode', 'verb', 'resource', 'subresource', 'namespace', 'name'] as const;

/** The parameters that choose the simulated write, as a query string; '' when the address asks for none. */
export function simulateRequestKey(params: URLSearchParams): string {
  if (!params.get('simKind')) return '';
  const out = new URLSearchParams();
  for (const k of KEY_PARAMS) {
    const v = params.get(k);
    if (v) out.set(k, v);
  }
  return out.toString();
}
