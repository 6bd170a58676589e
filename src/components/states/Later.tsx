/**
 * A part of a screen loaded on demand (React.lazy): `fallback` while its code comes, and when the
 * code cannot come (the network dropped) a failure that offers to reload the page.
 */
import { Component, Suspense, type ReactNode } from 'react';
import { Failed } from './Failed.tsx';

class LoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Failed
        title="Part of this page could not load"
        message="Check your connection, then reload the page."
        retryLabel="Reload"
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
