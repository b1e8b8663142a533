import type { Component } from '../elements/element.js';
import { SystemError } from '../errors/june-error.js';
import { inspect, type InspectReport } from '../interpreter/inspect.js';
import { propsSchemaOf } from '../workflows/props-schema.js';

/**
 * A workflow to serve as one MCP tool: its root component, and what the tool says of it.
 * - `props`: the schema of its props (zod, any Standard Schema, `jsonSchema()`): the tool's
 *   input schema, checked before a run starts;
 * - `output`: the schema of the run's output: the tool's output schema;
 * - `description`: the tool's description;
 * - `inspect`: what the workflow's `inspect` resource gives. @default `inspect(component)`
 */
export interface ServedWorkflow {
  component: Component;
  props?: unknown;
  output?: unknown;
  description?: string;
  inspect?: (options: {
    props?: Record<string, unknown>;
    details?: boolean;
  }) => Promise<InspectReport>;
}

/** A workflow as served: its tool name, and its props and output as JSON Schemas (when given). */
export interface Served {
  name: string;
  workflow: ServedWorkflow;
  propsSchema: Record<string, unknown> | undefined;
  outputSchema: Record<string, unknown> | undefined;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The workflows to serve, checked, by tool name: each given component or
 * {@link ServedWorkflow} with its `props` and `output` schemas as JSON Schemas.
 *
 * @throws {SystemError} `serve-option-invalid` for a name that cannot be an MCP tool's
 *   (letters, digits, `_`, `-`, `.`, at most 128) or for no workflow at all;
 *   `serve-workflow-invalid` for a workflow that is not a component.
 */
export async function servedWorkflows(
  workflows: Record<string, Component | ServedWorkflow>,
): Promise<Map<string, Served>> {
  const served = new Map<string, Served>();
  for (const [name, given] of Object.entries(workflows)) {
    if (!TOOL_NAME.test(name))
      throw new SystemError(
        'serve-option-invalid',
        `june: ${JSON.stringify(name)} cannot be an MCP tool's name; use letters, digits, "_", "-" and "." (at most 128).`,
      );
    const workflow = typeof given === 'function' ? { component: given } : given;
    if (typeof workflow?.component !== 'function')
      throw new SystemError(
        'serve-workflow-invalid',
        `june: the workflow "${name}" is not a component; serve a function component or { component }.`,
      );
    served.set(name, {
      name,
      workflow,
      propsSchema: await propsSchemaOf(workflow.props),
      outputSchema: await propsSchemaOf(workflow.output),
    });
  }
  if (served.size === 0)
    throw new SystemError('serve-option-invalid', 'june: give at least one workflow to serve.');
  return served;
}

/**
 * What `inspect()` reports of a served workflow (its agents and the tools each may call):
 * its own `inspect` when it has one, else June's `inspect` of its component.
 * @throws whatever the inspection throws (a component that fails to render).
 */
export function inspectOf(
  s: Served,
  options: { props?: Record<string, unknown>; details?: boolean },
): Promise<InspectReport> {
  return s.workflow.inspect ? s.workflow.inspect(options) : inspect(s.workflow.component, options);
}
