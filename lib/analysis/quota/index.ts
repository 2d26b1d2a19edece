export {
  ALL_MODE_DEVICES,
  analyseQuotas,
  atOrAboveWatermark,
  CLAIM_COUNT_KEY,
  claimDeviceUsage,
  computeQuotaUsage,
  devicesQuotaKey,
  extendedQuotaKey,
  parseDraQuotaKey,
  usageDisagrees,
  type DraQuotaKey,
  type QuotaAnalysis,
} from './quota-usage';
