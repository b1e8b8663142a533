export { collectCapabilities, capabilityNotation, isCapabilityElement } from './collect.js';
export type { CollectedChildren, CollectedDeclaration, Frame } from './collect.js';
export { resolveCapabilities } from './resolve.js';
export type {
  CompositeToolFactory,
  PendingToolSource,
  ResolveInput,
  ResolveOutput,
} from './resolve.js';
export { declarationComponent, declarationOf } from './declaration.js';
export type {
  AnyTool,
  CapabilityDeclaration,
  CompositeToolSpec,
  ToolSource,
  ToolSourceConnection,
} from './declaration.js';
export { approvalFlag } from './scope.js';
export type { CapabilityProvenance, ResolvedCapability, ResolvedScope } from './scope.js';
export { mapExecutes } from './map-executes.js';
export type { ToolExecute } from './map-executes.js';
