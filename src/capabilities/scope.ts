import type { ToolSet } from 'ai';
import type { AnyTool } from './declaration.js';

/**
 * Where one tool of an agent came from: plain data, safe to put in a trace (never a tool,
 * a function, or a component's props).
 *
 * - `source`: the declaration, then the bundles and wrappers it came through, outermost
 *   first: `<Tool name="search"> in <Namespace name="github">`.
 * - `granted`: for a tool taken by `<Inherit>`, what it was taken from:
 *   `<Tool name="files"> in the enclosing <Agent>`.
 * - `composite`: the tool runs a workflow of its own.
 * - `original`: the tool's own name at its source, when the agent knows it by another (a
 *   source's `rename`, or a name such as `files.read` made callable as `files_read`).
 * - `guards`: the `<Guard>`s over the agent, outermost first, by declaration
 *   (`<Guard name="no-prod">`): each checks the tool's calls. A guard is not a wrapper, so
 *   it is never part of `source`.
 */
export interface CapabilityProvenance {
  name: string;
  source: string;
  granted?: string;
  composite?: true;
  original?: string;
  guards?: string[];
  /** The `<Budget>`s over the agent, outermost first, by declaration: they cap its steps' model calls. */
  budgets?: string[];
}

/** One tool of a resolved scope, with what June knows about it. */
export interface ResolvedCapability {
  /** The name the model calls it by (after namespaces). */
  name: string;
  tool: AnyTool;
  provenance: CapabilityProvenance;
  /** False for tools that came from the `tools` prop (they record no provenance). */
  declared: boolean;
  /** Where it was declared (` at file.tsx:12:7` from the development runtime), for messages; `''` when unknown. */
  location?: string;
}

/**
 * An agent's resolved capabilities: one AI SDK `ToolSet` plus where each tool came from.
 * `capabilities` is what the agent's trace node records (absent when only the `tools`
 * prop was used).
 */
export interface ResolvedScope {
  tools: ToolSet;
  byName: ReadonlyMap<string, ResolvedCapability>;
  capabilities?: CapabilityProvenance[];
  /**
   * Tool sources whose tools are not known yet (outside a run, which does not connect), by
   * notation. An `<Inherit>` of a name missing from such a scope is checked when a run resolves it.
   */
  pending?: string[];
}

/** `true`, `false`, or `'dynamic'` (a function decides per call) for a tool's `needsApproval`. */
export function approvalFlag(tool: AnyTool): boolean | 'dynamic' {
  const value = (tool as { needsApproval?: unknown }).needsApproval;
  if (typeof value === 'function') return 'dynamic';
  return value === true;
}
