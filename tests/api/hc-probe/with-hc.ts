import { hc } from 'hono/client';
import type { AppType } from '../../../src/server/app.ts';

const client = hc<AppType>('http://127.0.0.1:4321/api');

export async function probe() {
  const users = await (await client.admin.users.$get({ query: { q: 'robin', pageSize: '5' } })).json();
  const notes = await (await client.account.notifications.$get({ query: {} })).json();
  const project = await (await client.admin.projects[':id'].$patch({ param: { id: '1' }, json: { name: 'Renamed' } })).json();
  const review = await (await client.admin.submissions[':id'].review.$post({ param: { id: '1' }, json: { decision: 'approve' } })).json();
  return [users, notes, project, review];
}
