export { listNodeStatusWriters, compareWriters, type NodeStatusWriterMap } from './node-status-writers';
export {
  allocatedClaims,
  ClaimWriterAnalysis,
  compareClaimWriters,
  driversOf,
  listClaimStatusWriters,
  placeAllocatedClaims,
  type ClaimPlacement,
  type ClaimStatusWriterMap,
} from './claim-status-writers';
export { computeBlastRadius, type BlastRadius, type BlastRadiusClaim, type BlastRadiusIdentity, type BlastRadiusInputs } from './blast-radius';
