import { asSchema, type Tool } from 'ai';

type JsonSchema = Record<string, unknown>;

/**
 * A tool's schemas as JSON Schema, for a process that checks answers without the tool (a
 * `RunClient` answering a run on a database worker): `input` its input schema, `output` its
 * output schema. Only forms at hand synchronously are given (a zod or `jsonSchema()` schema
 * has one); absent, that side is not checked there.
 */
export interface ToolAnswerSchemas {
  input?: JsonSchema;
  output?: JsonSchema;
}

/**
 * The JSON Schema forms of `tool`'s input and output schemas (see {@link ToolAnswerSchemas}).
 *
 * @example
 * ```ts
 * toolAnswerSchemas(tools.deploy).input; // { type: 'object', properties: { env: { enum: ['staging', 'prod'] } }, ... }
 * ```
 */
export function toolAnswerSchemas(tool: Tool | undefined): ToolAnswerSchemas {
  const input = jsonFormOf(tool?.inputSchema);
  const output = jsonFormOf((tool as { outputSchema?: unknown } | undefined)?.outputSchema);
  return { ...(input ? { input } : {}), ...(output ? { output } : {}) };
}

function jsonFormOf(schema: unknown): JsonSchema | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  try {
    const form: unknown = asSchema(schema as Parameters<typeof asSchema>[0]).jsonSchema;
    if (typeof form !== 'object' || form === null) return undefined;
    if (typeof (form as { then?: unknown }).then === 'function') return undefined;
    return form as JsonSchema;
  } catch {
    return undefined;
  }
}
