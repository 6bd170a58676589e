import { hc } from 'hono/client';
import type { AppType } from '../../../src/server/app.ts';

const client = hc<AppType>('http://127.0.0.1:4321/api');

export async function probe() {
  return Promise.all([
    (await client.health.$get()).json(),
    (await client.auth.$get()).json(),
    (await client.account.$get()).json(),
    (await client.account.profile.$patch({ json: { firstName: 'A', lastName: 'B' } })).json(),
    (await client.account.points.$get({ query: {} })).json(),
    (await client.account['mission-history'].$get()).json(),
    (await client.account['mission-history'][':missionId'].$get({ param: { missionId: '1' } })).json(),
    (await client.account.notifications.$get({ query: {} })).json(),
    (await client.admin.users.$get({ query: {} })).json(),
    (await client.admin.reports.$get({ query: {} })).json(),
    (await client.admin['contact-messages'].$get({ query: {} })).json(),
    (await client.admin['data-deletion-requests'].$get({ query: {} })).json(),
    (await client.admin.forms.$get({ query: {} })).json(),
    (await client.admin.forms[':id'].$get({ param: { id: '1' } })).json(),
    (await client.admin.projects.$get({ query: {} })).json(),
    (await client.admin.projects[':id'].$get({ param: { id: '1' } })).json(),
    (await client.admin.projects[':id'].members.$get({ param: { id: '1' }, query: {} })).json(),
    (await client.admin.surveys[':id'].$get({ param: { id: '1' } })).json(),
    (await client.admin.missions[':id'].$get({ param: { id: '1' } })).json(),
    (await client.admin.missions[':id'].submissions.$get({ param: { id: '1' }, query: {} })).json(),
    (await client.admin.submissions[':id'].$get({ param: { id: '1' } })).json(),
    (await client.home.$get()).json(),
    (await client.surveys[':id'].$get({ param: { id: '1' } })).json(),
    (await client.missions[':id'].$get({ param: { id: '1' } })).json(),
    (await client['mission-groups'][':id'].$get({ param: { id: '1' } })).json(),
  ]);
}
