/**
 * /admin/rewards (issue 30 §2): the catalogue — title, kind, delivery, currency, values,
 * countries, active, stock — searchable and in pages; "New reward" and "Edit" open the reward
 * dialog; then the community's rewards settings. Admins change them; moderators read (the
 * controls hidden or disabled; the API refuses them anyway). A link to the reward requests.
 */
import { useState } from 'react';
import type { ListPage } from '../../../shared/list.ts';
import type { AdminReward, AdminRewardSettings } from '../../../shared/rewards.ts';
import { withQuery } from '../../../platform/api.ts';
import { useResource } from '../../../lib/resource.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { Loading } from '../../../components/states/Loading.tsx';
import { Failed } from '../../../components/states/Failed.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FilterSelect, ListBody, ListFooter, PER_PAGE, SearchForm, Section, TableHead, TableScroller, td } from '../admin-kit.tsx';
import { countriesText, FULFILMENT_LABELS, KIND_LABELS, valuesText } from './logic.ts';
import { RewardDialog } from './RewardDialog.tsx';
import { RewardSettingsForm } from './RewardSettingsForm.tsx';

type ActiveFilter = 'all' | 'true' | 'false';
const ACTIVE_OPTIONS: readonly { value: ActiveFilter; label: string }[] = [
  { value: 'all', label: 'Active and inactive' },
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

const MODERATOR_NOTE = 'Only admins can change rewards. Moderators see them.';

/** The island of /admin/rewards. */
export default function RewardsScreen() {
  const auth = useAuth();
  if (auth.status !== 'authenticated') return <Loading label="Loading rewards…" />;
  return <Rewards canEdit={auth.user.role === 'admin'} />;
}

function Rewards({ canEdit }: { canEdit: boolean }) {
  const [q, setQ] = useState('');
  const [active, setActive] = useState<ActiveFilter>('all');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminReward | 'new' | null>(null);
  const params: Record<string, string> = { page: String(page), pageSize: String(PER_PAGE), sort: 'title' };
  if (q) params.q = q;
  if (active !== 'all') params.active = active;
  const list = useResource<ListPage<AdminReward>>(withQuery('/api/admin/rewards', params));
  const settings = useResource<AdminRewardSettings>('/api/admin/rewards/settings');
  const filtered = q !== '' || active !== 'all';
  const reward = editing === 'new' ? null : editing;

  return (
    <div className="flex flex-col gap-8">
      <p className="text-sm">
        <a href="/admin/rewards/redemptions" className="font-medium text-primary underline-offset-4 hover:underline">
          Reward requests →
        </a>
      </p>
      <Section
        id="catalogue"
        title="Catalogue"
        description={canEdit ? 'What participants can turn their points into.' : `What participants can turn their points into. ${MODERATOR_NOTE}`}
        aside={canEdit ? <Button onClick={() => setEditing('new')}>New reward</Button> : undefined}
      >
        <SearchForm
          label="Search rewards"
          value={q}
          onSearch={(next) => {
            setQ(next);
            setPage(1);
          }}
        >
          <FilterSelect
            label="Shown"
            value={active}
            options={ACTIVE_OPTIONS}
            onChange={(next) => {
              setActive(next);
              setPage(1);
            }}
            className="sm:w-52"
          />
        </SearchForm>
        <ListBody
          load={list.load}
          reload={list.reload}
          loadingLabel="Loading rewards…"
          isEmpty={(data) => data.items.length === 0}
          empty={filtered ? 'No reward matches.' : canEdit ? 'No rewards yet. Add the first one.' : 'No rewards yet.'}
        >
          {(data) => (
            <>
              <TableScroller label="Rewards table">
                <div className="relative">
                  <table className="w-full min-w-[56rem] border-collapse">
                    <caption className="sr-only">Rewards, {data.total} in all</caption>
                    <TableHead
                      columns={[
                        'Title',
                        'Kind',
                        'Delivered',
                        'Currency',
                        'Values',
                        'Countries',
                        'Active',
                        'Stock',
                        ...(canEdit ? [{ label: 'Actions', hidden: true }] : []),
                      ]}
                    />
                    <tbody>
                      {data.items.map((item) => (
                        <tr key={item.id}>
                          <td className={`${td} font-medium`}>{item.title}</td>
                          <td className={td}>{KIND_LABELS[item.kind]}</td>
                          <td className={td}>
                            {FULFILMENT_LABELS[item.fulfilment]}
                            {item.providerProductId && <span className="block text-xs text-muted-foreground">{item.providerProductId}</span>}
                          </td>
                          <td className={td}>{item.currency}</td>
                          <td className={`${td} tabular-nums`}>{valuesText(item)}</td>
                          <td className={td}>{countriesText(item.countries)}</td>
                          <td className={td}>
                            <Badge variant={item.active ? 'default' : 'outline'}>{item.active ? 'Active' : 'Inactive'}</Badge>
                          </td>
                          <td className={`${td} tabular-nums`}>{item.kind === 'custom' ? (item.stock ?? 'No limit') : '—'}</td>
                          {canEdit && (
                            <td className={td}>
                              <Button variant="outline" size="sm" onClick={() => setEditing(item)}>
                                Edit<span className="sr-only"> {item.title}</span>
                              </Button>
                            </td>
                          )}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </TableScroller>
              <ListFooter page={data.page} total={data.total} perPage={data.pageSize} label="Rewards pages" onPageChange={setPage} />
            </>
          )}
        </ListBody>
      </Section>

      <Section
        id="settings"
        title="Settings"
        description={canEdit ? 'How points turn into money, and when a person checks a request.' : `How points turn into money. ${MODERATOR_NOTE}`}
      >
        {settings.load.status === 'loading' ? (
          <Loading label="Loading the settings…" />
        ) : settings.load.status !== 'ready' ? (
          <Failed title="The settings could not be loaded" message={settings.load.message} onRetry={settings.reload} />
        ) : (
          <RewardSettingsForm settings={settings.load.data} canEdit={canEdit} onSaved={(next) => settings.replace(next)} />
        )}
      </Section>

      {canEdit && (
        <RewardDialog
          // A new form for each reward (and each saved version of it): the dialog's values start from it.
          key={reward ? `${reward.id}-${reward.updatedAt}` : 'new'}
          open={editing !== null}
          onOpenChange={(open) => !open && setEditing(null)}
          reward={reward}
          provider={settings.load.status === 'ready' ? settings.load.data.provider : undefined}
          onSaved={() => list.reload()}
        />
      )}
    </div>
  );
}
