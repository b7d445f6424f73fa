export * from "../../../plugin/index.js";
export { heightSum as heightSumForTest } from "../../../plugin/core/erosionState.js";
