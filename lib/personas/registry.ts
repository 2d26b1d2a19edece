import type { Persona, PersonaId } from './types';
import { auditor } from './auditor';
import { custom } from './custom';
import { driverController } from './driver-controller';
import { multiNodeController } from './multi-node-controller';
import { nodeLocalDriver } from './node-local-driver';
import { nodeReadinessReporter } from './node-readiness-reporter';
import { scheduler } from './scheduler';
import { tenant } from './tenant';

/** Every persona, keyed by the id the CLI and the page use. */
export const PERSONAS: Readonly<Record<PersonaId, Persona>> = Object.freeze({
  scheduler,
  'node-local-driver': nodeLocalDriver,
  'multi-node-controller': multiNodeController,
  'driver-controller': driverController,
  tenant,
  'node-readiness-reporter': nodeReadinessReporter,
  auditor,
  custom,
});

export function isPersonaId(id: string): id is PersonaId {
  return Object.hasOwn(PERSONAS, id);
}
