import type { DeviceClassAnalysis } from './device-classes';

// What a tenant allow-list of DeviceClasses (CLAIM004 and its guard fix) must keep out: accelerators
// whose devices are not zeroed between tenants (ZERO002's classes). A class that is not an accelerator
// (network interfaces, CPUs, ComputeDomain channels: accelerators.ts) holds no tenant data for zeroing
// to clear, so leaving it off would only refuse that driver's own claims: ComputeDomain channel
// templates, NIC claims.

/** Classes a tenant may use: zeroing configured, or not an accelerator. */
export function tenantAllowedClasses(classes: readonly DeviceClassAnalysis[]): DeviceClassAnalysis[] {
  return classes.filter((c) => c.zeroing === 'configured' || c.acceleratorReason === null);
}

/** Accelerator classes without a zeroing indicator: what a tenant guard must refuse. */
export function unzeroedAccelerators(classes: readonly DeviceClassAnalysis[]): DeviceClassAnalysis[] {
  return classes.filter((c) => c.zeroing !== 'configured' && c.acceleratorReason !== null);
}
