import type { LanguageModel } from 'ai';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { checkModel } from '../models/resolve-model.js';
import { renderComponent } from './render-component.js';
import type { PriceSettings } from './budget-price.js';
import type { TreePass } from './run-state.js';

/** What a {@link CheckPass} is given by the run it checks for. */
export interface CheckPassOptions {
  /** Where what components render is kept for the run (`RunPass.renders`). */
  renders: Map<JuneElement, JuneNode>;
  /** The run's components rendering now (`RunAbort.rendering`), so an abort can name one. */
  rendering: Set<{ component: string }>;
  /** The run's model and prices, to check `<Budget usd>`s. */
  priceSettings?: PriceSettings;
}

/**
 * The static check a run makes of a tree before its first model call (and of a composite
 * call's workflow before the child run): components render (once: the run reuses what they
 * returned), agents resolve their capabilities and their models are checked, steps are
 * checked but not run, render-prop children are not followed. It sends no event and has no
 * services: no log, no abort controller, no approvals, no tool sources.
 *
 * @example
 * ```ts
 * const pass = new CheckPass({ renders: run.renders, rendering: services.abort.rendering });
 * const frame = createRunFrame({ pass, runId: 'check', prefix: [], signal });
 * await evaluate(element, { run: frame, parentId: frame.nodeId });
 * ```
 */
export class CheckPass implements TreePass {
  readonly services = undefined;
  readonly #renders: Map<JuneElement, JuneNode>;
  readonly #rendering: Set<{ component: string }>;
  readonly priceSettings: PriceSettings;
  #nodeCount = 0;

  constructor(options: CheckPassOptions) {
    this.#renders = options.renders;
    this.#rendering = options.rendering;
    this.priceSettings = options.priceSettings ?? {};
  }

  nodeId(): string {
    return `check${++this.#nodeCount}`;
  }

  emit(): void {}

  render(element: JuneElement): JuneNode | Promise<JuneNode> {
    // an element used twice renders once here
    if (this.#renders.has(element)) return this.#renders.get(element);
    return renderComponent(element, this.#rendering).then((rendered) => {
      this.#renders.set(element, rendered);
      return rendered;
    });
  }

  checkModel(model: LanguageModel, what: string): void {
    checkModel(model, what);
  }
}
