import type { JuneNode } from '../elements/element.js';

const BUNDLE_BODY = Symbol.for('june.bundle.body');

/** A bundle's body: the pure function of its props that returns the capabilities it adds. */
export type BundleBody = (props: any) => JuneNode;

/**
 * Marks a bundle component (`defineCapabilities`) with the function it was defined with, so
 * capability collection can call it while an agent resolves. Internal.
 */
export function markBundleBody(component: object, body: BundleBody): void {
  Object.defineProperty(component, BUNDLE_BODY, { value: body });
}

/** The function a bundle was defined with, or undefined for any other element type. Internal. */
export function bundleBody(type: unknown): BundleBody | undefined {
  return typeof type === 'function'
    ? (type as unknown as Record<symbol, BundleBody>)[BUNDLE_BODY]
    : undefined;
}
