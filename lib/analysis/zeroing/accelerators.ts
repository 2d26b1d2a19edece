import type { AnalysisSettings } from '@/lib/analysis/settings';
import type { ResourceSlice } from '@/lib/k8s/types';

// Which DeviceClasses are accelerators for ZERO002 (issue #23 item 4): devices with memory of their
// own that keeps a tenant's data after release unless something scrubs it (dra-facts §9). Decided
// from the class and its driver, first rule that applies:
// 1. settings.acceleratorClasses names the class;
// 2. the driver is one that is known not to hand out such memory (NOT_ACCELERATOR_DRIVERS);
// 3. the driver is a known accelerator driver (ACCELERATOR_DRIVERS), checked at each driver's source;
// 4. the driver's ResourceSlices publish devices with a memory capacity (GPUs of every vendor do:
//    NVIDIA, AMD, Intel, the example driver; TPU, Gaudi and Neuron devices publish none, hence rule 3);
// 5. the class or driver name matches settings.acceleratorPattern (a class without slices).
// A class whose driver is unknown is matched by its name where the convention (class named after the
// driver) allows.

/** Driver name → what it hands out. */
export const ACCELERATOR_DRIVERS: Readonly<Record<string, string>> = {
  'gpu.nvidia.com': 'NVIDIA GPUs, MIG devices and VFIO GPUs',
  'gpu.amd.com': 'AMD GPUs',
  'gpu.intel.com': 'Intel GPUs',
  'gaudi.intel.com': 'Intel Gaudi AI accelerators',
  'npu.intel.com': 'Intel NPUs',
  'tpu.google.com': 'Google TPUs',
  'neuron.aws.com': 'AWS Inferentia and Trainium (Neuron) devices',
};

/** Driver name → why it is not an accelerator for zeroing. */
export const NOT_ACCELERATOR_DRIVERS: Readonly<Record<string, string>> = {
  'qat.intel.com':
    'Intel QuickAssist crypto and compression offload: it works on buffers in host memory, and the driver resets a virtual function when it is freed',
  'dra.cpu': 'CPUs: their memory is host memory, which the kernel zeroes before a process gets it',
  'dra.memory': 'host memory and hugepages, which the kernel zeroes before a process gets them',
  'dra.net': 'network interfaces',
  'sriovnetwork.k8snetworkplumbingwg.io': 'SR-IOV network virtual functions',
  'compute-domain.nvidia.com':
    'NVIDIA ComputeDomain IMEX channels and daemons: access to the NVLink fabric; the memory is on the GPUs of gpu.nvidia.com claims',
};

/** Capacity names (without a domain prefix) that are device memory. */
const MEMORY_CAPACITY = /memory|vram|hbm/i;

/** Per driver, the first device found with a memory capacity, as "pool/device: name value" (built once per analysis). */
export function memoryDevicesByDriver(slices: readonly ResourceSlice[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of slices) {
    const driver = s.spec?.driver;
    if (!driver || out.has(driver)) continue;
    for (const d of s.spec.devices ?? []) {
      const name = Object.keys(d.capacity ?? {}).find((k) => MEMORY_CAPACITY.test(k.slice(k.lastIndexOf('/') + 1)));
      if (name === undefined) continue;
      out.set(driver, `${s.spec.pool?.name ?? ''}/${d.name}: ${name} ${d.capacity![name].value}`);
      break;
    }
  }
  return out;
}

/** Why a DeviceClass is an accelerator, or null when it is not one. */
export function acceleratorReason(
  dc: { name: string; driver: string | null },
  memoryDevices: ReadonlyMap<string, string>,
  settings: Pick<AnalysisSettings, 'acceleratorClasses' | 'acceleratorPattern'>,
): string | null {
  if (settings.acceleratorClasses?.includes(dc.name)) return 'listed in settings.acceleratorClasses';
  // A class with no known driver is read by the convention that names it after its driver.
  const driver = dc.driver ?? dc.name;
  const via = dc.driver === null ? `class name ${driver}` : `driver ${driver}`;
  if (Object.hasOwn(NOT_ACCELERATOR_DRIVERS, driver)) return null;
  if (Object.hasOwn(ACCELERATOR_DRIVERS, driver)) return `${via} is a known accelerator driver (${ACCELERATOR_DRIVERS[driver]})`;
  const example = memoryDevices.get(driver);
  if (example !== undefined) return `devices of ${via} publish a memory capacity (${example})`;
  let re: RegExp;
  try {
    re = new RegExp(settings.acceleratorPattern, 'i');
  } catch {
    return null;
  }
  if (re.test(dc.name)) return `its name matches settings.acceleratorPattern (${settings.acceleratorPattern})`;
  if (dc.driver !== null && re.test(dc.driver)) return `its driver ${dc.driver} matches settings.acceleratorPattern (${settings.acceleratorPattern})`;
  return null;
}
