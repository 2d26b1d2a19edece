/** Thresholds and classification lists for the analysis; one object, overridable from a settings file. */
export interface ZeroingIndicator {
  kind: 'deviceClassAnnotation' | 'opaqueParameter';
  /** deviceClassAnnotation: the annotation key and the value it must equal. */
  key?: string;
  equals?: string;
  /** opaqueParameter: a DeviceClass spec.config[].opaque entry (any driver when absent) whose parameters[path] equals `equals`. */
  driver?: string;
  path?: string;
}

export interface AnalysisSettings {
  /** Always platform, in addition to namespaces running DRA driver pods and those labelled dra-posture.io/role=platform. */
  platformNamespaces: string[];
  /** Identities allowed to hold resourceclaims/binding (DRA007), as usernames. */
  allocatorIdentities: string[];
  /** Driver or class names matching this (case-insensitive) are accelerators (ZERO002) when the driver's facts do not decide (zeroing/accelerators.ts). */
  acceleratorPattern: string;
  /** DeviceClass names that are accelerators whatever their driver (ZERO002). */
  acceleratorClasses: string[];
  /** Zeroing evidence per driver name; "*" applies to every driver. */
  zeroingIndicators: Record<string, ZeroingIndicator[]>;
  /** QUOTA003 fires at or above this fraction of hard. */
  quotaHighWatermark: number;
}

export const DEFAULT_SETTINGS: AnalysisSettings = {
  platformNamespaces: ['kube-system', 'kube-public', 'kube-node-lease'],
  allocatorIdentities: ['system:kube-scheduler', 'system:serviceaccount:kube-system:resource-claim-controller'],
  acceleratorPattern: 'gpu|tpu|npu|fpga|accel',
  acceleratorClasses: [],
  zeroingIndicators: {
    '*': [
      { kind: 'opaqueParameter', path: 'resetPolicy', equals: 'ZeroVRAMOnRelease' },
      { kind: 'deviceClassAnnotation', key: 'dra-posture.io/zero-on-release', equals: 'true' },
    ],
  },
  quotaHighWatermark: 0.9,
};

export function mergeSettings(overrides: Partial<AnalysisSettings> | undefined): AnalysisSettings {
  return { ...DEFAULT_SETTINGS, ...(overrides ?? {}) };
}
