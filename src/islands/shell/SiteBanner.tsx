/** The site-wide banner of the `banner` feature flag (docs/product.md §4): no dismiss button, announced politely. */
import { useClientStore } from '../../lib/use-client-store.ts';
import { $siteBanner } from '../../stores/site-banner.ts';

export default function SiteBanner() {
  const text = useClientStore($siteBanner, null);
  return (
    <div role="status" aria-label="Site announcement" data-site-banner>
      {text && <p className="border-b border-border bg-secondary px-4 py-2 text-center text-sm font-medium text-secondary-foreground">{text}</p>}
    </div>
  );
}
