import type { Check } from './check-types';

export const ZERO_CHECKS: Check[] = [];
