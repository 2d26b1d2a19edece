// A resource.k8s.io v1 object in the shape of another served version, as the API server hands it to
// a policy that matched the request through that version (matchPolicy Equivalent). v1beta2 has the
// v1 shape; v1beta1 has flat claim requests (`requests[].deviceClassName`, no `exactly`) and slice
// devices under `basic`. Returns undefined for a version or kind it does not know.

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function requestsToV1beta1(devices: unknown): unknown {
  if (!isObj(devices) || !Array.isArray(devices.requests)) return devices;
  return {
    ...devices,
    requests: devices.requests.map((r) => {
      if (!isObj(r) || !isObj(r.exactly)) return r;
      const { exactly, ...rest } = r;
      return { ...rest, ...(exactly as Obj) };
    }),
  };
}

function claimSpecToV1beta1(spec: unknown): unknown {
  return isObj(spec) && 'devices' in spec ? { ...spec, devices: requestsToV1beta1(spec.devices) } : spec;
}

export function convertDraObject(object: unknown, version: string): unknown {
  if (!isObj(object)) return object;
  const kind = object.kind;
  if (version === 'v1' || version === 'v1beta2') return { ...object, apiVersion: `resource.k8s.io/${version}` };
  if (version !== 'v1beta1') return undefined;
  const out: Obj = { ...object, apiVersion: 'resource.k8s.io/v1beta1' };
  if (kind === 'ResourceClaim') out.spec = claimSpecToV1beta1(object.spec);
  else if (kind === 'ResourceClaimTemplate' && isObj(object.spec)) out.spec = { ...object.spec, spec: claimSpecToV1beta1(object.spec.spec) };
  else if (kind === 'ResourceSlice' && isObj(object.spec) && Array.isArray(object.spec.devices))
    out.spec = {
      ...object.spec,
      devices: object.spec.devices.map((d) => {
        if (!isObj(d)) return d;
        const { name, ...basic } = d;
        return { name, basic };
      }),
    };
  else if (kind !== 'DeviceClass' && kind !== 'ResourceClaim' && kind !== 'ResourceClaimTemplate' && kind !== 'ResourceSlice') return undefined;
  return out;
}
