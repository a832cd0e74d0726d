export { SafetyAnalyzer, safetyOptionsFromConfig, type ToolApprovalConfig } from './analyzer.js';
export type { CommandClass, SafetyOptions, SafetyReport } from './types.js';
export { checkKubectlArguments, type KubectlArgumentCheck } from './kubectl-classes.js';
