import type { Container } from '@/lib/k8s/types';

// Linux capabilities a container adds (securityContext.capabilities.add) that reach beyond the
// container to the node, from capabilities(7). The Pod Security Standards baseline level lets a pod
// add only AUDIT_WRITE, CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, MKNOD, NET_BIND_SERVICE, SETFCAP,
// SETGID, SETPCAP, SETUID and SYS_CHROOT; of the others, these give node-level control. Left out as
// confined to the container's own namespaces or resources: IPC_LOCK (pinned memory, common for GPU
// and RDMA drivers), IPC_OWNER, NET_RAW, NET_BROADCAST, SYS_NICE, SYS_RESOURCE, LEASE, WAKE_ALARM,
// BLOCK_SUSPEND, AUDIT_READ, LINUX_IMMUTABLE, SYS_PACCT, SYS_TTY_CONFIG, CHECKPOINT_RESTORE.

/** What the Pod Security Standards baseline level allows in capabilities.add. */
export const BASELINE_CAPABILITIES: readonly string[] = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
];

/** Host-level capability → what it lets the holder do (completes "lets it ..."). */
export const HOST_LEVEL_CAPABILITIES: Readonly<Record<string, string>> = {
  ALL: 'use every capability',
  SYS_ADMIN: 'mount filesystems, enter other namespaces and administer the kernel (the usual container escape)',
  SYS_MODULE: 'load kernel modules',
  SYS_RAWIO: 'do raw I/O on host memory and devices (/dev/mem, I/O ports)',
  SYS_PTRACE: 'trace other processes and read their memory',
  SYS_BOOT: 'reboot the node or load a new kernel (kexec)',
  SYS_TIME: "set the node's clock, which no namespace isolates",
  DAC_READ_SEARCH: 'open host files by handle, outside its mounts (open_by_handle_at)',
  NET_ADMIN: "reconfigure interfaces, routes and firewall rules (the node's own with hostNetwork)",
  BPF: 'load BPF programs into the kernel',
  PERFMON: 'trace the kernel and other processes through perf events',
  MAC_ADMIN: 'change the AppArmor or SELinux policy',
  MAC_OVERRIDE: 'bypass AppArmor or SELinux',
  SYSLOG: 'read the kernel log and kernel addresses',
  AUDIT_CONTROL: "change the kernel's audit rules",
};

/** A capability name as the runtimes read it: case-insensitive, with or without the CAP_ prefix. */
export function normaliseCapability(name: string): string {
  const upper = name.toUpperCase();
  return upper.startsWith('CAP_') ? upper.slice(4) : upper;
}

/** The host-level capabilities a container adds, normalised, in the order written, without repeats. */
export function hostLevelCapabilities(c: Container): string[] {
  const out = new Set<string>();
  for (const name of c.securityContext?.capabilities?.add ?? []) {
    const cap = normaliseCapability(name);
    if (Object.hasOwn(HOST_LEVEL_CAPABILITIES, cap)) out.add(cap);
  }
  return [...out];
}
