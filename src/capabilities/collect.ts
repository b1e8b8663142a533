import { bundleBody } from '../components/define-capabilities.js';
import { kindOf, displayNameOf } from '../elements/builtin.js';
import { flattenChildren } from '../elements/children.js';
import type { JuneElement, JuneNode } from '../elements/element.js';
import { notation, locationSuffix } from '../elements/notation.js';
import { WorkflowError } from '../errors/june-error.js';

/** A bundle or wrapper a declaration came through. */
export type Frame =
  | { kind: 'bundle'; notation: string; type: unknown }
  | { kind: 'namespace'; notation: string; name: string }
  | { kind: 'require-approval'; notation: string };

/** One capability declaration found among an agent's children. */
export interface CollectedDeclaration {
  kind: 'tool' | 'inherit' | 'declaration';
  element: JuneElement;
  /** The declaration in the docs' notation: `<Tool name="search">`. */
  notation: string;
  /** Bundles and wrappers around it, outermost first. */
  frames: Frame[];
}

/** An agent's children split in two: capability declarations, and everything else in order. */
export interface CollectedChildren {
  declarations: CollectedDeclaration[];
  others: JuneNode[];
}

const NAMESPACE_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;

/** The docs' notation for a capability element (the props that identify it, nothing else). */
export function capabilityNotation(element: JuneElement): string {
  switch (kindOf(element.type)) {
    case 'tool':
    case 'namespace':
      return notation(element, ['name']);
    case 'inherit':
      return notation(element, ['capabilities']);
    default:
      return notation(element);
  }
}

/** True for elements that only make sense while an agent resolves its capabilities. */
export function isCapabilityElement(element: JuneElement): boolean {
  const kind = kindOf(element.type);
  return kind === 'tool' || kind === 'inherit' || kind === 'declaration' || kind === 'bundle' || kind === 'namespace' || kind === 'require-approval';
}

/**
 * Splits an agent's children into capability declarations (found directly, or through
 * fragments, arrays, conditions, bundles and wrappers) and the other children, in order.
 * Bundles are called here, with their props. Pure: no model, no I/O.
 *
 * @throws {WorkflowError} `bundle-content-invalid`, `wrapper-content-invalid`, `bundle-cycle`,
 *   `namespace-name-invalid`, `agent-child-invalid` (text among an agent's children).
 */
export function collectCapabilities(children: JuneNode, agentNotation = '<Agent>'): CollectedChildren {
  const result: CollectedChildren = { declarations: [], others: [] };
  walk(children, [], result, agentNotation);
  return result;
}

function walk(node: JuneNode, frames: Frame[], out: CollectedChildren, agentNotation: string): void {
  for (const child of flattenChildren(node)) {
    if (typeof child === 'string') {
      if (frames.length === 0) {
        throw new WorkflowError('agent-child-invalid', `june: ${agentNotation} has the text ${JSON.stringify(child)} among its children; an agent's children are capabilities, steps and components. Put text in a <Step prompt>.`);
      }
      throw containerError(frames, JSON.stringify(child));
    }
    const kind = kindOf(child.type);
    switch (kind) {
      case 'fragment':
        walk((child.props as { children?: JuneNode }).children, frames, out, agentNotation);
        break;
      case 'tool':
      case 'inherit':
      case 'declaration':
        out.declarations.push({ kind, element: child, notation: capabilityNotation(child), frames });
        break;
      case 'namespace': {
        const name = (child.props as { name?: unknown }).name;
        if (typeof name !== 'string' || !NAMESPACE_NAME.test(name)) {
          throw new WorkflowError(
            'namespace-name-invalid',
            `june: <Namespace name=${JSON.stringify(name)}>${locationSuffix(child.source)} has an invalid name; a namespace name is letters, digits and hyphens, starting with a letter (e.g. "github").`,
          );
        }
        walk((child.props as { children?: JuneNode }).children, [...frames, { kind: 'namespace', name, notation: capabilityNotation(child) }], out, agentNotation);
        break;
      }
      case 'require-approval':
        walk((child.props as { children?: JuneNode }).children, [...frames, { kind: 'require-approval', notation: '<RequireApproval>' }], out, agentNotation);
        break;
      case 'bundle': {
        const seen = frames.filter((f): f is Extract<Frame, { kind: 'bundle' }> => f.kind === 'bundle');
        const frame: Frame = { kind: 'bundle', notation: capabilityNotation(child), type: child.type };
        if (seen.some((f) => f.type === child.type)) {
          const start = seen.findIndex((f) => f.type === child.type);
          const chain = [...seen.slice(start), frame].map((f) => f.notation).join(' > ');
          throw new WorkflowError('bundle-cycle', `june: a bundle contains itself: ${chain}. A bundle may not render itself, directly or through other bundles.`);
        }
        const body = bundleBody(child.type)!;
        walk(body(child.props), [...frames, frame], out, agentNotation);
        break;
      }
      default:
        if (frames.length > 0) throw containerError(frames, describe(child));
        out.others.push(child);
    }
  }
}

function describe(element: JuneElement): string {
  const kind = kindOf(element.type);
  if (kind === 'step') return `${notation(element, ['id'])}${locationSuffix(element.source)}`;
  if (kind === undefined) return `the component <${displayNameOf(element.type)}>${locationSuffix(element.source)}`;
  return `${notation(element)}${locationSuffix(element.source)}`;
}

function containerError(frames: Frame[], what: string): WorkflowError {
  const innermost = frames[frames.length - 1]!;
  if (innermost.kind === 'bundle') {
    return new WorkflowError(
      'bundle-content-invalid',
      `june: the bundle ${innermost.notation} returned ${what}, but a bundle holds only capabilities (<Tool>, bundles, wrappers, <Inherit>). Put steps, agents and your own components in the <Agent>'s children.`,
    );
  }
  return new WorkflowError(
    'wrapper-content-invalid',
    `june: ${innermost.notation} holds ${what}, but a wrapper holds only capabilities (<Tool>, bundles, wrappers, <Inherit>). Move it out of the wrapper, into the <Agent>'s children.`,
  );
}
