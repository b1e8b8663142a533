import { displayNameOf } from '../elements/builtin.js';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { jsxSetupFix } from '../elements/jsx-setup.js';
import { locationSuffix } from '../elements/notation.js';
import { WorkflowError } from '../errors/june-error.js';

/**
 * Calls a user component. A component compiled for React's classic JSX throws
 * `React is not defined` when it builds its first element: that becomes the setup error.
 * While it renders it is listed in `rendering` (a run's, see `RunAbort.rendering`), so an
 * abort it ignores can name it.
 *
 * @throws {WorkflowError} `jsx-runtime-react`; whatever else the component throws, as it is.
 */
export async function renderComponent(
  element: JuneElement,
  rendering?: Set<{ component: string }>,
): Promise<JuneNode> {
  const entry = { component: `<${displayNameOf(element.type)}>${locationSuffix(element.source)}` };
  rendering?.add(entry);
  try {
    return await element.type(element.props);
  } catch (error) {
    const fix = error instanceof ReferenceError ? jsxSetupFix(error.message) : undefined;
    if (fix === undefined) throw error;
    throw new WorkflowError(
      'jsx-runtime-react',
      `june: the component <${displayNameOf(element.type)}>${locationSuffix(element.source)} failed to render: ${fix}.`,
      { cause: error },
    );
  } finally {
    rendering?.delete(entry);
  }
}
