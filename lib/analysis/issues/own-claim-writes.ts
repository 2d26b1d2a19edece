import type { AnalysisContext } from '@/lib/analysis/context-types';
import { driverNamesOf } from '@/lib/analysis/checks/dra-shared';
import type { ClaimStatusWriter } from '@/lib/analysis/types';
import { refKey } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';

// A driver writing status.devices of its own driver's claims is doing its job, not forging them
// (DESIGN §4 personas, as DRA005 expects them): a kubelet plugin for claims allocated on the node its
// token names (associated-node), a multi-node controller (a platform service account with no pod on a
// node's behalf) for claims on any node. Its own driver is what the facts say it serves (driverNamesOf:
// the plugin sub-directories its driver pods mount, the driver names its grants list); an identity whose
// driver is not known (an unscoped grant, no such mount) gets no exemption: every write counts.

export class OwnClaimWrites {
  private readonly drivers = new Map<string, ReadonlySet<string>>();

  constructor(private readonly ctx: AnalysisContext) {}

  /** Whether the writer is a driver's service account writing its own driver's claims the way its persona does. */
  isOwn(w: Pick<ClaimStatusWriter, 'subject' | 'driver' | 'mode'>): boolean {
    const s = w.subject;
    if (s.kind !== 'ServiceAccount' || !this.ctx.isPlatformNamespace(s.namespace ?? '')) return false;
    if (!this.driversOf(s).has(w.driver)) return false;
    return w.mode === 'associated-node' || !this.ctx.isNodeLocalIdentity(s);
  }

  private driversOf(sa: SubjectRef): ReadonlySet<string> {
    const key = refKey(sa);
    let names = this.drivers.get(key);
    if (!names) this.drivers.set(key, (names = new Set(driverNamesOf(this.ctx, sa))));
    return names;
  }
}
