import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** Props of {@link RequireApproval}. */
export interface RequireApprovalProps {
  /** Capabilities only: tools, bundles, wrappers, `<Inherit>`, fragments. */
  children?: JuneNode;
}

/**
 * Makes every tool declared inside it wait for a person's approval, through the AI SDK's own
 * `needsApproval`. It only adds the requirement: a tool inside that says
 * `needsApproval: false` still waits. It puts a person in front of a call; it does not
 * limit what the tool can do once approved.
 *
 * @throws {WorkflowError} `wrapper-content-invalid` when it holds anything other than capabilities.
 * @example
 * ```tsx
 * <RequireApproval>
 *   <Tool name="close" value={closeIssue} />
 * </RequireApproval>
 * ```
 */
export const RequireApproval = builtin(
  'require-approval',
  'RequireApproval',
  (_props: RequireApprovalProps): JuneNode => null,
);
