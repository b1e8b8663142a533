/** The tree's column heads. */
export function TreeHead() {
  return (
    <div class="tree-head" aria-hidden="true">
      <span>Node</span>
      <span>Status</span>
      <span class="num">Duration</span>
      <span class="num">Tokens</span>
      <span class="num">Cost</span>
    </div>
  );
}
