/**
 * A part of a screen loaded on demand (React.lazy): `fallback` while its code comes, and when the
 * code cannot come (the network dropped) a failure that offers to reload the page.
 */
import { Component, Suspense, type ReactNode } from 'react';
import { Failed } from './Failed.tsx';
import { m } from '../../shared/i18n.ts';

class LoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Failed
        title={m.shell_later_failed_title()}
        message={m.shell_later_failed_message()}
        retryLabel={m.shell_later_reload()}
        onRetry={() => location.reload()}
      />
    );
  }
}

export function Later({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return (
    <LoadBoundary>
      <Suspense fallback={fallback}>{children}</Suspense>
    </LoadBoundary>
  );
}
