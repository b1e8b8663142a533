import { bundleBody } from './bundle-body.js';
import { shownPropsOf } from './declaration.js';
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

/**
 * The docs' notation for a capability element (the props that identify it, nothing else).
 *
 * @example
 * ```tsx
 * capabilityNotation(<Inherit capabilities={['files']} />); // '<Inherit capabilities={["files"]}>'
 * ```
 */
export function capabilityNotation(element: JuneElement): string {
  switch (kindOf(element.type)) {
    case 'tool':
    case 'namespace':
      return notation(element, ['name']);
    case 'inherit':
      return notation(element, ['capabilities']);
    case 'declaration':
      return notation(element, shownPropsOf(element.type));
    default:
      return notation(element);
  }
}

/**
 * A declaration followed by the bundles and wrappers it came through, outermost first, as
 * provenance and errors write it.
 *
 * @example
 * ```ts
 * chainNotation('<Tool name="close">', frames); // '<Tool name="close"> in <Namespace name="github"> in <RequireApproval>'
 * ```
 */
export function chainNotation(declaration: string, frames: readonly Frame[]): string {
  if (frames.length === 0) return declaration;
  let suffix = chainSuffixes.get(frames);
  if (suffix === undefined) {
    suffix = '';
    for (const frame of frames) suffix += ` in ${frame.notation}`;
    chainSuffixes.set(frames, suffix);
  }
  return declaration + suffix;
}

/** Sibling declarations share one frames array; their common suffix is built once. */
const chainSuffixes = new WeakMap<readonly Frame[], string>();

/**
 * Where a declaration stands, for error messages: its notation and source location, then
 * its bundles and wrappers, outermost first.
 *
 * @example
 * ```ts
 * declarationPlace(declaration); // '<Tool name="search"> at triage.tsx:9:9 in <Namespace name="github">'
 * ```
 */
export function declarationPlace(declaration: CollectedDeclaration): string {
  return chainNotation(
    `${declaration.notation}${locationSuffix(declaration.element.source)}`,
    declaration.frames,
  );
}

/**
 * True for elements that only make sense while an agent resolves its capabilities.
 *
 * @example
 * ```tsx
 * isCapabilityElement(<Tool name="a" value={a} />); // true
 * isCapabilityElement(<Step id="s" prompt="go" />); // false
 * ```
 */
export function isCapabilityElement(element: JuneElement): boolean {
  const kind = kindOf(element.type);
  return (
    kind === 'tool' ||
    kind === 'inherit' ||
    kind === 'declaration' ||
    kind === 'bundle' ||
    kind === 'namespace' ||
    kind === 'require-approval'
  );
}

/**
 * Splits an agent's children into capability declarations (found directly, or through
 * fragments, arrays, conditions, bundles and wrappers) and the other children, in order.
 * Bundles are called here, with their props. Pure: no model, no I/O.
 *
 * @throws {WorkflowError} `bundle-content-invalid` (a bundle returned a step, an agent, text,
 *   a component of yours or a promise), `wrapper-content-invalid`, `bundle-cycle` (with the
 *   chain `<A> > <B> > <A>`), `namespace-name-invalid`, `agent-child-invalid` (text among an
 *   agent's children).
 * @example
 * ```tsx
 * const { declarations, others } = collectCapabilities([<Files writable />, <Step id="fix" prompt="Fix it" />]);
 * declarations.map((d) => d.notation); // ['<Tool name="readFile">', '<Tool name="writeFile">']
 * others.length; // 1 (the step)
 * ```
 */
export function collectCapabilities(
  children: JuneNode,
  agentNotation = '<Agent>',
): CollectedChildren {
  const result: CollectedChildren = { declarations: [], others: [] };
  walk(children, [], { out: result, agentNotation });
  return result;
}

/** What a walk over one agent's children writes to, and how errors name that agent. */
interface Walk {
  out: CollectedChildren;
  agentNotation: string;
}

function walk(node: JuneNode, frames: Frame[], walker: Walk): void {
  for (const child of flattenChildren(node)) {
    if (typeof child === 'string') throw textChildError(child, frames, walker);
    const kind = kindOf(child.type);
    const children = (child.props as { children?: JuneNode }).children;
    switch (kind) {
      case 'fragment':
        walk(children, frames, walker);
        break;
      case 'tool':
      case 'inherit':
      case 'declaration':
        walker.out.declarations.push({
          kind,
          element: child,
          notation: capabilityNotation(child),
          frames,
        });
        break;
      case 'namespace':
        walk(children, [...frames, namespaceFrame(child, frames, walker)], walker);
        break;
      case 'require-approval':
        walk(
          children,
          [...frames, { kind: 'require-approval', notation: '<RequireApproval>' }],
          walker,
        );
        break;
      case 'bundle':
        walkBundle(child, frames, walker);
        break;
      default:
        if (frames.length > 0) throw containerError(frames, describe(child));
        walker.out.others.push(child);
    }
  }
}

/** Text among an agent's children, or inside a container of capabilities. */
function textChildError(text: string, frames: Frame[], walker: Walk): WorkflowError {
  if (frames.length > 0) return containerError(frames, JSON.stringify(text));
  return new WorkflowError(
    'agent-child-invalid',
    `june: ${walker.agentNotation} has the text ${JSON.stringify(text)} among its children; an agent's children are capabilities, steps and components. Put text in a <Step prompt>.`,
  );
}

/**
 * The frame a `<Namespace>` adds.
 * @throws {WorkflowError} `namespace-name-invalid` when its name is missing or not a valid name.
 */
function namespaceFrame(child: JuneElement, frames: Frame[], walker: Walk): Frame {
  const name = (child.props as { name?: unknown }).name;
  if (typeof name !== 'string' || !NAMESPACE_NAME.test(name)) {
    const shown = typeof name === 'string' ? capabilityNotation(child) : '<Namespace>';
    const got =
      typeof name === 'string'
        ? `has the invalid name ${JSON.stringify(name)}`
        : `has no name (got ${name === null ? 'null' : typeof name})`;
    throw new WorkflowError(
      'namespace-name-invalid',
      `june: ${chainNotation(`${shown}${locationSuffix(child.source)}`, frames)} in ${walker.agentNotation} ${got}; a namespace name is letters, digits and hyphens, starting with a letter (e.g. name="github"). Rename it.`,
    );
  }
  return { kind: 'namespace', name, notation: capabilityNotation(child) };
}

/**
 * Walks what a bundle returns for its props, inside a frame of its own.
 * @throws {WorkflowError} `bundle-cycle` when the bundle is already among the frames;
 *   `bundle-content-invalid` when it returns a Promise.
 */
function walkBundle(child: JuneElement, frames: Frame[], walker: Walk): void {
  const frame: Frame = {
    kind: 'bundle',
    notation: capabilityNotation(child),
    type: child.type,
  };
  const start = frames.findIndex((f) => f.kind === 'bundle' && f.type === child.type);
  if (start !== -1) {
    const chain = [...frames.slice(start), frame]
      .filter((f) => f.kind === 'bundle')
      .map((f) => f.notation)
      .join(' > ');
    throw new WorkflowError(
      'bundle-cycle',
      `june: a bundle contains itself: ${chain} (in ${walker.agentNotation}). A bundle may not render itself, directly or through other bundles; break the cycle.`,
    );
  }
  const body = bundleBody(child.type)!;
  const returned = body(child.props);
  if (isThenable(returned)) {
    throw new WorkflowError(
      'bundle-content-invalid',
      `june: the bundle ${chainNotation(`${frame.notation}${locationSuffix(child.source)}`, frames)} returned a Promise, but a bundle is a synchronous, pure function of its props. Return the capabilities themselves; put work that waits in the capability it returns.`,
    );
  }
  walk(returned, [...frames, frame], walker);
}

function describe(element: JuneElement): string {
  const kind = kindOf(element.type);
  if (kind === 'step') return `${notation(element, ['id'])}${locationSuffix(element.source)}`;
  if (kind === undefined)
    return `the component <${displayNameOf(element.type)}>${locationSuffix(element.source)}`;
  return `${notation(element)}${locationSuffix(element.source)}`;
}

function containerError(frames: Frame[], what: string): WorkflowError {
  const innermost = frames[frames.length - 1]!;
  const container = chainNotation(innermost.notation, frames.slice(0, -1));
  if (innermost.kind === 'bundle') {
    return new WorkflowError(
      'bundle-content-invalid',
      `june: the bundle ${container} returned ${what}, but a bundle holds only capabilities (<Tool>, bundles, wrappers, <Inherit>). Put steps, agents and your own components in the <Agent>'s children.`,
    );
  }
  return new WorkflowError(
    'wrapper-content-invalid',
    `june: ${container} holds ${what}, but a wrapper holds only capabilities (<Tool>, bundles, wrappers, <Inherit>). Move it out of the wrapper, into the <Agent>'s children.`,
  );
}

function isThenable(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
