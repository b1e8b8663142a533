import type { ComponentChildren } from 'preact';
import { useErrorBoundary } from 'preact/hooks';
import { errorMessage } from '../../src/errors/error-message.js';

/**
 * Shows what went wrong when drawing `children` failed, instead of a page that stays as it
 * was (on "Loading the trace...") or goes blank.
 */
export function ShowErrors({ what, children }: { what: string; children: ComponentChildren }) {
  const [error] = useErrorBoundary();
  if (error) {
    const message =
      error instanceof RangeError ? 'it is nested too deeply to draw' : errorMessage(error);
    return (
      <main class="run-page">
        <p class="notice notice-error" data-testid="run-error">
          Studio cannot show {what}: {message}
        </p>
      </main>
    );
  }
  return <>{children}</>;
}
