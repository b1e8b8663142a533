import type { LanguageModel } from 'ai';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { checkModel } from '../models/resolve-model.js';
import type { EventInput } from './event-input.js';
import { renderComponent } from './render-component.js';
import type { RunServices } from './run-services.js';
import type { PriceSettings } from './budget-price.js';
import type { TreePass } from './run-state.js';

/**
 * The walk that runs a workflow: events go to the run's log, steps run with the run's
 * services. What the static check rendered (`renders`, filled by a {@link CheckPass} given
 * the same map) is taken once, so each component renders once per run.
 *
 * @example
 * ```ts
 * const pass = new RunPass(createRunServices({ runId }));
 * const frame = createRunFrame({ pass, runId, prefix: [], signal: pass.services.abort.signal });
 * ```
 */
export class RunPass implements TreePass {
  /** What user components rendered during the static check, by element identity: used once. */
  readonly renders = new Map<JuneElement, JuneNode>();

  constructor(readonly services: RunServices) {}

  get priceSettings(): PriceSettings {
    return this.services.settings;
  }

  nodeId(parentId: string | undefined, name: string): string {
    return this.services.log.nodeId(parentId, name);
  }

  emit(event: EventInput): void {
    this.services.log.emit(event);
  }

  render(element: JuneElement): JuneNode | Promise<JuneNode> {
    if (this.renders.has(element)) {
      const rendered = this.renders.get(element);
      this.renders.delete(element);
      return rendered;
    }
    return renderComponent(element, this.services.abort.rendering);
  }

  checkModel(model: LanguageModel, what: string): void {
    checkModel(this.services.settings.model ?? model, what);
  }
}
