import { enclosingAgent, isChildRun, type TreeItem } from './trace-tree.js';

/**
 * The declaration a node comes from, in the notation of June's messages: `<Agent name="a">`,
 * `<Step id="s">`, `<Tool name="t">` (for a tool, the source its agent recorded for it, e.g.
 * `<Tool name="search"> in <Namespace name="github">`, or the one it was granted from);
 * `undefined` for a run node.
 */
export function declarationOf(item: TreeItem): string | undefined {
  const { node } = item;
  switch (node.kind) {
    case 'agent':
      return `<Agent name="${node.name}">`;
    case 'step':
      return `<Step id="${node.step ?? node.name}">`;
    case 'model':
      return item.parent ? `a model call of ${declarationOf(item.parent)}` : 'a model call';
    case 'catch':
      return `<Catch> (${node.name})`;
    case 'parallel':
      return `<Parallel> (${node.branches?.length ?? node.children.length} branches)`;
    case 'branch':
      return `the branch "${node.branch ?? node.name}" of <Parallel>`;
    case 'tool': {
      const capability = enclosingAgent(item)?.node.capabilities?.find(
        (declared) => declared.name === node.name,
      );
      return capability?.granted ?? capability?.source ?? `<Tool name="${node.name}">`;
    }
    default:
      return isChildRun(item) && item.parent
        ? `the child run of ${declarationOf(item.parent)}`
        : undefined;
  }
}

/** Where a node stands: the agents and steps above it, outermost first (`<Agent name="a"> › <Step id="s">`). */
export function placeOf(item: TreeItem): string {
  const above: string[] = [];
  for (let at = item.parent; at; at = at.parent) {
    if (at.node.kind === 'agent' || at.node.kind === 'step' || at.node.kind === 'branch')
      above.unshift(declarationOf(at)!);
    else if (isChildRun(at)) above.unshift(`child run ${at.node.name}`);
  }
  return above.join(' › ');
}
