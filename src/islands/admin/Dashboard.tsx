import type { ReactNode } from 'react';
import { useResource } from '../../lib/resource.ts';
import { useAuth } from '../../lib/use-auth.ts';
import { ChevronRightIcon } from '../../components/icons.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Loading } from '../../components/states/Loading.tsx';
import { ProjectsSection } from './projects/ProjectsSection.tsx';

interface Counted {
  total: number;
}

/** The `total` of a list call (one record asked for), or null when it cannot be read. */
function useTotal(url: string | null): number | null | 'loading' {
  const { load } = useResource<Counted>(url);
  if (url === null) return null;
  if (load.status === 'loading') return 'loading';
  return load.status === 'ready' && typeof load.data.total === 'number' ? load.data.total : null;
}

function Tile({
  href,
  title,
  count,
  countLabel,
  children,
}: {
  href: string;
  title: string;
  count?: number | null | 'loading';
  countLabel?: readonly [one: string, many: string];
  children: ReactNode;
}) {
  return (
    <li>
      <Card className="h-full transition-colors hover:border-primary">
        <a
          href={href}
          className="flex h-full flex-col gap-2 rounded-xl p-5 no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <span className="flex items-center justify-between gap-2 font-semibold text-foreground">
            {title}
            <ChevronRightIcon className="size-4 shrink-0 text-muted-foreground" />
          </span>
          {count !== undefined && (
            <span className="text-sm text-foreground">
              {count === 'loading' ? (
                <span className="text-muted-foreground">Counting…</span>
              ) : count === null ? (
                <span className="text-muted-foreground">Count not available</span>
              ) : (
                <>
                  <span className="text-2xl font-semibold tabular-nums">{count}</span>{' '}
                  <span className="text-muted-foreground">{countLabel ? countLabel[count === 1 ? 0 : 1] : null}</span>
                </>
              )}
            </span>
          )}
          <span className="text-sm text-muted-foreground">{children}</span>
        </a>
      </Card>
    </li>
  );
}

/** /admin: where to go, with the real counts the list calls give, and the projects. */
export default function Dashboard() {
  const auth = useAuth();
  const ready = auth.status === 'authenticated';
  const isAdmin = ready && auth.user.role === 'admin';
  const users = useTotal(ready ? '/api/admin/users?pageSize=1' : null);
  const errors = useTotal(ready ? '/api/admin/reports?pageSize=1' : null);
  const messages = useTotal(ready ? '/api/admin/contact-messages?pageSize=1' : null);
  const deletions = useTotal(isAdmin ? '/api/admin/data-deletion-requests?pageSize=1&status=confirmed' : null);
  if (!ready) return <Loading label="Loading the dashboard…" />;

  return (
    <div className="flex flex-col gap-4">
      <p className="text-muted-foreground">Welcome back, {auth.user.firstName}. Here is where things stand.</p>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <Tile href="/admin/users" title="Users" count={users} countLabel={['account', 'accounts']}>
          Invite people, change roles, disable accounts.
        </Tile>
        <Tile href="/admin/tools#client-errors" title="Client errors" count={errors} countLabel={['distinct report', 'distinct reports']}>
          Errors visitors' browsers reported.
        </Tile>
        <Tile href="/admin/tools#contact-messages" title="Contact messages" count={messages} countLabel={['message', 'messages']}>
          What people sent through the contact form.
        </Tile>
        {isAdmin && (
          <Tile
            href="/admin/tools#data-deletion-requests"
            title="Data-deletion requests"
            count={deletions}
            countLabel={['waiting to be completed', 'waiting to be completed']}
          >
            Confirmed requests to delete an account.
          </Tile>
        )}
        <Tile href="/admin/gallery" title="Gallery">
          Browse the photos participants uploaded.
        </Tile>
        <Tile href="/admin/tools" title="Tools">
          Points bulk update, exports{isAdmin ? ', site switches' : ''}.
        </Tile>
      </ul>
      <ProjectsSection />
    </div>
  );
}
