import { WorkflowError } from '../errors/june-error.js';
import type { JuneNode } from '../elements/element.js';
import { createRunFrame, type EvalContext } from './run-state.js';
import type { InspectPass } from './inspect-pass.js';

type Evaluate = (node: JuneNode, ctx: EvalContext) => Promise<void>;

/**
 * For `inspect(el, { compositeInputs })`: renders the body of each composite tool named in
 * `inputs` (by its name as the calling model sees it, `research`, or by its path,
 * `research:summarize`) for that sample input, and inspects it as a child run would see it
 * (`<Inherit>` reading the calling agent). Its agents join the report with paths such as
 * `research:agent`; composite tools inside a body are followed the same way.
 *
 * @throws {WorkflowError} `inspect-composite-unknown` when an input names no composite tool
 *   the tree declares; every tree and capability error of a body.
 */
export async function inspectComposites(
  pass: InspectPass,
  inputs: Record<string, unknown>,
  evaluate: Evaluate,
): Promise<void> {
  const done = new Set<string>();
  const used = new Set<string>();
  for (let i = 0; i < pass.compositeBodies.length; i++) {
    const body = pass.compositeBodies[i]!;
    const path = body.prefix.join(':');
    if (done.has(path)) continue; // an agent resolved twice (tool sources) finds its tools twice
    done.add(path);
    const key = Object.hasOwn(inputs, path) ? path : body.name;
    used.add(key);
    const workflow = await body.render(inputs[key]);
    const frame = createRunFrame({
      pass,
      runId: 'inspect',
      prefix: body.prefix,
      signal: pass.signal,
      callerScope: body.caller(),
      ...(body.guards ? { guards: body.guards } : {}),
    });
    await evaluate(workflow, { run: frame, parentId: frame.nodeId });
  }
  const unknown = Object.keys(inputs).filter((key) => !used.has(key));
  if (unknown.length > 0) {
    const found = [...done];
    throw new WorkflowError(
      'inspect-composite-unknown',
      `june: inspect()'s compositeInputs names ${unknown.map((key) => `"${key}"`).join(', ')}, but the tree has no composite tool of that name; ` +
        `${found.length ? `it has ${found.map((key) => `"${key}"`).join(', ')} among those named` : 'name a composite <Tool> or defineAgent agent as its calling model sees it (after namespaces)'}.`,
    );
  }
}
