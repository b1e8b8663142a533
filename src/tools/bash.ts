import { declarationComponent } from '../capabilities/declaration.js';
import { locationSuffix } from '../elements/notation.js';
import type { JuneElement } from '../elements/element.js';
import { JuneError, WorkflowError } from '../errors/june-error.js';
import { bashTool, type BashTool, type BashToolOptions } from './bash-tool.js';

/** Props of {@link Bash}: the options of `bashTool()`, plus the tool's name. */
export interface BashProps extends BashToolOptions {
  /** The name the model calls it by. @default "bash" */
  name?: string;
}

/**
 * Declares a `bash` tool (see `bashTool()`) as a capability of the enclosing agent. Each call
 * waits for approval unless `needsApproval={false}`; a `<RequireApproval>` around it turns
 * approval back on regardless. Its `cwd` and `env` stay out of traces and provenance, which
 * show it as `<Bash>`.
 *
 * @throws {WorkflowError} `invalid-bash-option` when an option is out of range (when the agent resolves).
 * @example
 * ```tsx
 * <Agent model={model}>
 *   <Bash cwd="/tmp/scratch" timeoutMs={10_000} />
 *   <Step id="fix" prompt="Make the failing test pass" />
 * </Agent>
 * ```
 */
export const Bash = declarationComponent(
  'Bash',
  ({ name = 'bash', ...options }: BashProps, element) => ({
    notation: '<Bash>',
    tools: { [name]: bashOf(options, element) },
  }),
);

/** `bashTool(options)`, with an option error blaming the `<Bash>` element, not `bashTool()`. */
function bashOf(options: BashToolOptions, element: JuneElement<BashProps>): BashTool {
  try {
    return bashTool(options);
  } catch (error) {
    if (!JuneError.isInstance(error) || error.code !== 'invalid-bash-option') throw error;
    const message = error.message
      .replace('june: bashTool(): ', `june: <Bash>${locationSuffix(element.source)}: `)
      .replace(/change bashTool\(\{ (\w+) \}\)/, 'change its $1 prop');
    throw new WorkflowError('invalid-bash-option', message, { cause: error });
  }
}
