/**
 * The field of a chat request's body that carries edits of approval answers: the AI SDK's
 * `addToolApprovalResponse({ id, approved, reason })` has no place for an edited input or
 * an answer instead of the tool, so the page sends them beside the messages.
 */
export const APPROVAL_EDITS_FIELD = 'juneApprovals';

/**
 * What goes with an approval answer the page gave with `addToolApprovalResponse`:
 * `{ input }` with an approval (the call runs with it instead of the model's), or
 * `{ output }` with a denial (the tool does not run; the model reads it as the result).
 * Both JSON values.
 */
export type ApprovalEdit = { input: unknown } | { output: unknown };

/** The body field {@link approvalWith} makes: approval id to its edit. */
export interface ApprovalEditsBody {
  juneApprovals: Record<string, ApprovalEdit>;
}

/**
 * The body to send with the approval answers a page gave, so June's chat handler applies an
 * edited input or an answer instead of the tool (both checked against the tool's schemas
 * there; one that does not fit is refused). A pure function with no imports, safe in a page.
 *
 * @param id the approval id (`part.approval.id` of the tool part), or every edit by id.
 * @example
 * ```ts
 * await chat.addToolApprovalResponse({ id: part.approval.id, approved: true });
 * await chat.sendMessage(undefined, { body: approvalWith(part.approval.id, { input: { env: 'staging' } }) });
 * // or answer instead of the tool:
 * await chat.addToolApprovalResponse({ id: part.approval.id, approved: false });
 * await chat.sendMessage(undefined, { body: approvalWith(part.approval.id, { output: 'deployed by hand' }) });
 * ```
 */
export function approvalWith(id: string, edit: ApprovalEdit): ApprovalEditsBody;
export function approvalWith(edits: Record<string, ApprovalEdit>): ApprovalEditsBody;
export function approvalWith(
  idOrEdits: string | Record<string, ApprovalEdit>,
  edit?: ApprovalEdit,
): ApprovalEditsBody {
  const edits =
    typeof idOrEdits === 'string' ? { [idOrEdits]: edit as ApprovalEdit } : { ...idOrEdits };
  return { [APPROVAL_EDITS_FIELD]: edits } as ApprovalEditsBody;
}
