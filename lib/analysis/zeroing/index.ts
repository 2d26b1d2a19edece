export {
  analyseDeviceClasses,
  analyseDeviceClassesDetailed,
  classesOfSpec,
  driverFromSelectors,
  indicatorMatches,
  indicatorsFor,
  isAcceleratorClass,
  zeroingState,
  type DeviceClassAnalysis,
} from './device-classes';
