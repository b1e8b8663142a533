import { asSchema } from 'ai';

/**
 * The JSON Schema of the props schema a workflow file exports as `props` (zod, any Standard
 * Schema, or the AI SDK's `jsonSchema()`), as Studio's form and `june run --props` check
 * props against it; `undefined` when the file exports none (or one whose JSON Schema cannot
 * be made).
 *
 * @example
 * ```ts
 * await propsSchemaOf(z.object({ env: z.enum(['staging', 'prod']) })); // { type: 'object', ... }
 * ```
 */
export async function propsSchemaOf(schema: unknown): Promise<Record<string, unknown> | undefined> {
  if (
    typeof schema !== 'object' ||
    schema === null ||
    !('~standard' in schema || 'jsonSchema' in schema)
  )
    return undefined;
  try {
    return (await asSchema(schema as Parameters<typeof asSchema>[0]).jsonSchema) as Record<
      string,
      unknown
    >;
  } catch {
    return undefined;
  }
}
