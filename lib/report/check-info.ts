import { CHECK_LIST } from '@/lib/analysis/checks/registry';
import type { Severity } from './types';

export interface CheckInfo {
  id: string;
  severity: Severity;
  title: string;
  description: string;
}

/**
 * What the SARIF and JUnit outputs say about each check, in catalogue order. One place to read it
 * from, so it can follow the check catalogue when that moves.
 */
export function checkCatalogue(): CheckInfo[] {
  return CHECK_LIST.map((c) => ({ id: c.id, severity: c.severity, title: c.title, description: c.description }));
}
