import type { JuneElement, JuneNode } from '../elements/element.js';
import { renderComponent } from './render-component.js';
import type { AgentFrame, CompositeBody, TreePass } from './run-state.js';

/**
 * The walk of `inspect()`: components render, agents resolve their capabilities (tool
 * sources are listed, not connected; models are not checked), steps are checked but not
 * run. It keeps every agent resolved and, given sample inputs, the composite tools whose
 * bodies it renders next. It sends no event and has no services.
 */
export class InspectPass implements TreePass {
  readonly services = undefined;
  /** Every agent resolved, in order. */
  readonly agents: AgentFrame[] = [];
  /** The composite tools named in {@link compositeInputs}, found so far. */
  readonly compositeBodies: CompositeBody[] = [];
  /** Never aborts: `inspect()` calls no model and runs no tool. */
  readonly signal = new AbortController().signal;
  #nodeCount = 0;

  /** @param compositeInputs sample inputs by tool name or path (`InspectOptions.compositeInputs`). */
  constructor(readonly compositeInputs?: Record<string, unknown>) {}

  nodeId(): string {
    return `inspect${++this.#nodeCount}`;
  }

  emit(): void {}

  render(element: JuneElement): Promise<JuneNode> {
    return renderComponent(element);
  }

  agentResolved(agent: AgentFrame): void {
    this.agents.push(agent);
  }

  compositeFound(body: CompositeBody): void {
    const inputs = this.compositeInputs;
    if (
      inputs &&
      (Object.hasOwn(inputs, body.prefix.join(':')) || Object.hasOwn(inputs, body.name))
    )
      this.compositeBodies.push(body);
  }
}
