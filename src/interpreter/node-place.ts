/** Where an event stands in the trace: its node and that node's parent. */
export interface NodePlace {
  nodeId: string;
  parentId?: string;
}
