import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import type { ResourceSlice } from '@/lib/k8s/types';
import { acceleratorReason, memoryDevicesByDriver } from './accelerators';

const slice = (driver: string, devices: NonNullable<ResourceSlice['spec']['devices']>): ResourceSlice => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceSlice',
  metadata: { name: `${driver}-n1` },
  spec: { driver, nodeName: 'n1', pool: { name: 'n1', generation: 1, resourceSliceCount: 1 }, devices },
});

const slices = [
  slice('xpu.example.org', [{ name: 'xpu-0', attributes: { model: { string: 'X1' } }, capacity: { 'xpu.example.org/hbm': { value: '96Gi' } } }]),
  slice('dra.memory', [{ name: 'memory-abc', capacity: { memory: { value: '64Gi' } } }]),
  slice('dra.cpu', [{ name: 'cpudev0', capacity: { 'dra.cpu/cpu': { value: '64' } } }]),
  slice('nic.example.org', [{ name: 'eth1', attributes: { model: { string: 'ConnectX-7' } } }]),
];
const memory = memoryDevicesByDriver(slices);
const reason = (name: string, driver: string | null, settings = DEFAULT_SETTINGS) => acceleratorReason({ name, driver }, memory, settings);

describe('acceleratorReason', () => {
  it('knows accelerator drivers whose devices publish no memory capacity (Gaudi, TPU, Neuron, NPU)', () => {
    expect(reason('gaudi.intel.com', 'gaudi.intel.com')).toBe('driver gaudi.intel.com is a known accelerator driver (Intel Gaudi AI accelerators)');
    expect(reason('v5e', 'tpu.google.com')).toBe('driver tpu.google.com is a known accelerator driver (Google TPUs)');
    expect(reason('neuron.aws.com', null)).toBe('class name neuron.aws.com is a known accelerator driver (AWS Inferentia and Trainium (Neuron) devices)');
    expect(reason('mig.nvidia.com', 'gpu.nvidia.com')).not.toBeNull();
  });

  it("reads device memory from the driver's ResourceSlices", () => {
    expect(reason('big-xpu', 'xpu.example.org')).toBe('devices of driver xpu.example.org publish a memory capacity (n1/xpu-0: xpu.example.org/hbm 96Gi)');
    expect(reason('nic', 'nic.example.org')).toBeNull();
  });

  it('leaves out crypto offload, CPUs, host memory, NICs and ComputeDomain channels, even with a memory capacity or a matching name', () => {
    for (const driver of ['qat.intel.com', 'dra.cpu', 'dra.memory', 'dra.net', 'sriovnetwork.k8snetworkplumbingwg.io', 'compute-domain.nvidia.com']) {
      expect(reason(driver, driver), driver).toBeNull();
    }
    expect(reason('accel-qat', 'qat.intel.com')).toBeNull();
  });

  it('settings: acceleratorClasses wins over every rule; the pattern decides a class without driver facts', () => {
    expect(reason('qat.intel.com', 'qat.intel.com', { ...DEFAULT_SETTINGS, acceleratorClasses: ['qat.intel.com'] })).toBe(
      'listed in settings.acceleratorClasses',
    );
    expect(reason('tpu-v5', null)).toBe('its name matches settings.acceleratorPattern (gpu|tpu|npu|fpga|accel)');
    expect(reason('plain', 'fpga.example.com')).toBe('its driver fpga.example.com matches settings.acceleratorPattern (gpu|tpu|npu|fpga|accel)');
    expect(reason('plain', 'plain.example.com')).toBeNull();
    expect(reason('tpu-v5', null, { ...DEFAULT_SETTINGS, acceleratorPattern: '(' })).toBeNull();
  });
});
