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
import { formatCount, m } from '../../../shared/i18n.ts';

type ActiveFilter = 'all' | 'true' | 'false';
const activeOptions = (): readonly { value: ActiveFilter; label: string }[] => [
  { value: 'all', label: m.admin_rewards_active_all() },
  { value: 'true', label: m.admin_rewards_active() },
  { value: 'false', label: m.admin_rewards_inactive() },
];

/** The island of /admin/rewards. */
export default function RewardsScreen() {
  const auth = useAuth();
  if (auth.status !== 'authenticated') return <Loading label={m.admin_rewards_loading()} />;
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
          {m.admin_rewards_requests_link()}
        </a>
      </p>
      <Section
        id="catalogue"
        title={m.admin_rewards_catalogue()}
        description={canEdit ? m.admin_rewards_catalogue_description() : m.admin_rewards_catalogue_description_moderator()}
        aside={canEdit ? <Button onClick={() => setEditing('new')}>{m.admin_rewards_new()}</Button> : undefined}
      >
        <SearchForm
          label={m.admin_rewards_search()}
          value={q}
          onSearch={(next) => {
            setQ(next);
            setPage(1);
          }}
        >
          <FilterSelect
            label={m.admin_rewards_shown()}
            value={active}
            options={activeOptions()}
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
          loadingLabel={m.admin_rewards_loading()}
          isEmpty={(data) => data.items.length === 0}
          empty={filtered ? m.admin_rewards_empty_filtered() : canEdit ? m.admin_rewards_empty_editor() : m.admin_rewards_empty()}
        >
          {(data) => (
            <>
              <TableScroller label={m.admin_rewards_table()}>
                <div className="relative">
                  <table className="w-full min-w-[56rem] border-collapse">
                    <caption className="sr-only">{m.admin_rewards_caption({ total: formatCount(data.total) })}</caption>
                    <TableHead
                      columns={[
                        m.admin_rewards_column_title(),
                        m.admin_rewards_column_kind(),
                        m.admin_rewards_column_delivered(),
                        m.admin_rewards_column_currency(),
                        m.admin_rewards_column_values(),
                        m.admin_rewards_column_countries(),
                        m.admin_rewards_active(),
                        m.admin_rewards_column_stock(),
                        ...(canEdit ? [{ label: m.admin_rewards_column_actions(), hidden: true }] : []),
                      ]}
                    />
                    <tbody>
                      {data.items.map((item) => (
                        <tr key={item.id}>
                          <td className={`${td} font-medium`}>{item.title}</td>
                          <td className={td}>{KIND_LABELS[item.kind]()}</td>
                          <td className={td}>
                            {FULFILMENT_LABELS[item.fulfilment]()}
                            {item.providerProductId && <span className="block text-xs text-muted-foreground">{item.providerProductId}</span>}
                          </td>
                          <td className={td}>{item.currency}</td>
                          <td className={`${td} tabular-nums`}>{valuesText(item)}</td>
                          <td className={td}>{countriesText(item.countries)}</td>
                          <td className={td}>
                            <Badge variant={item.active ? 'default' : 'outline'}>{item.active ? m.admin_rewards_active() : m.admin_rewards_inactive()}</Badge>
                          </td>
                          <td className={`${td} tabular-nums`}>
                            {item.kind === 'custom' ? (item.stock === null ? m.admin_rewards_no_limit() : formatCount(item.stock)) : '—'}
                          </td>
                          {canEdit && (
                            <td className={td}>
                              <Button variant="outline" size="sm" onClick={() => setEditing(item)}>
                                {m.admin_rewards_edit()}
                                <span className="sr-only"> {item.title}</span>
                              </Button>
                            </td>
                          )}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </TableScroller>
              <ListFooter page={data.page} total={data.total} perPage={data.pageSize} label={m.admin_rewards_pages()} onPageChange={setPage} />
            </>
          )}
        </ListBody>
      </Section>

      <Section
        id="settings"
        title={m.admin_rewards_settings()}
        description={canEdit ? m.admin_rewards_settings_description() : m.admin_rewards_settings_description_moderator()}
      >
        {settings.load.status === 'loading' ? (
          <Loading label={m.admin_rewards_settings_loading()} />
        ) : settings.load.status !== 'ready' ? (
          <Failed title={m.admin_rewards_settings_failed()} message={settings.load.message} onRetry={settings.reload} />
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
