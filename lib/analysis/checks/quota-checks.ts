import type { Check } from './check-types';

export const QUOTA_CHECKS: Check[] = [];
