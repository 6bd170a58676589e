import { Hono } from 'hono';
import { passkeyRegistrationSchema, passkeyRenameSchema } from '../../shared/schemas/passkeys.ts';
import type { AppEnv } from '../context.ts';
import { check, clientIp, jsonBody, pathId, recentAuth, signedIn, signedInUser } from '../http.ts';
import { passkeyRegistrationOptions, passkeysOf, registerPasskey, removePasskey, renamePasskey } from '../services/passkeys.ts';
import { notFound } from '../errors.ts';

/**
 * A person's passkeys (issue 29; docs/api.md "Account security"), mounted at
 * `/api/account/passkeys`: registering one (options, then the browser's answer), renaming and
 * removing one. Every call needs a session and a recent sign-in proof (`recentAuth`: 403
 * `reauth_required`); another person's passkey is 404.
 */
export const passkeyRoutes = new Hono<AppEnv>()
  .use('*', signedIn)

  /** The options for `navigator.credentials.create()`; the challenge is kept 5 minutes. */
  .post('/options', recentAuth, async (c) => {
    const { db, deps } = c.var;
    return c.json(await passkeyRegistrationOptions(db, deps, signedInUser(c.get('user'))), 200);
  })

  /** The browser's answer and a name: 201 with the passkey. */
  .post('/', recentAuth, jsonBody(passkeyRegistrationSchema), async (c) => {
    const { db, deps } = c.var;
    const passkey = await registerPasskey(db, deps, signedInUser(c.get('user')), c.req.valid('json'), { ip: clientIp(c) });
    return c.json(passkey, 201);
  })

  .patch(
    '/:id',
    recentAuth,
    // Whose passkey it is (404) before what the body holds (400).
    check(async (c) => {
      const id = pathId(c, 'id', 'passkey');
      const mine = await passkeysOf(c.get('db'), signedInUser(c.get('user')).id);
      if (!mine.some((p) => p.id === id)) throw notFound('passkey');
    }),
    jsonBody(passkeyRenameSchema),
    async (c) => {
      const { db, deps } = c.var;
      const { name } = c.req.valid('json');
      const passkey = await renamePasskey(db, deps, signedInUser(c.get('user')).id, pathId(c, 'id', 'passkey'), name, { ip: clientIp(c) });
      return c.json(passkey, 200);
    },
  )

  .delete('/:id', recentAuth, async (c) => {
    const { db, deps } = c.var;
    await removePasskey(db, deps, signedInUser(c.get('user')), pathId(c, 'id', 'passkey'), { ip: clientIp(c) });
    return c.body(null, 204);
  });
