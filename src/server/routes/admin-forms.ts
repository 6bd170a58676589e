import { Hono, type Context } from 'hono';
import {
  formCreateSchema,
  formDraftSaveSchema,
  formListQuerySchema,
  formPublishSchema,
  type BreakingChangesError,
  type FormDraftSaved,
  type FormInUseError,
  type FormPublished,
  type MissingTranslationsError,
  type StaleRevisionError,
} from '../../shared/schemas/forms.ts';
import type { AppEnv } from '../context.ts';
import type { Form } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { check, clientIp, jsonBody, pathId, query, signedInUser, staffOnly } from '../http.ts';
import { audit, type AuditInput } from '../services/audit.ts';
import {
  archiveForm,
  createForm,
  draftChanges,
  duplicateForm,
  findForm,
  findVersion,
  formView,
  listForms,
  publishForm,
  restoreForm,
  saveDraft,
} from '../services/forms.ts';

const ARCHIVED_MESSAGE = 'This form is archived; restore it to change it';

const formIdOf = (c: Context<AppEnv>) => pathId(c, 'id', 'form');
/** A malformed form id is 404 before the body is read. */
const formIdChecked = async (c: Context<AppEnv>) => formIdOf(c);

const noSuchForm = () => new ApiError(404, 'not_found', 'No such form');

async function existingForm(c: Context<AppEnv>): Promise<Form> {
  const form = await findForm(c.get('db'), formIdOf(c));
  if (!form) throw noSuchForm();
  return form;
}

/** The audit row of a change to a form by the signed-in staff member (`form.*` actions). */
const auditForm = (c: Context<AppEnv>, actorId: number, action: string, targetId: number, change: Pick<AuditInput, 'before' | 'after'>) =>
  audit(c.get('db'), { actorId, via: 'api', action, targetType: 'form', targetId, ...change, ip: clientIp(c) });

const archivedError = () => new ApiError(409, 'archived', ARCHIVED_MESSAGE);

/** What a draft save and a publish refuse alike: no such form (404), an archived one, a stale revision with the current draft (409). */
function editRefused(result: { kind: 'not_found' } | { kind: 'archived' } | { kind: 'stale'; error: StaleRevisionError }): ApiError {
  if (result.kind === 'not_found') return noSuchForm();
  if (result.kind === 'archived') return archivedError();
  const { code, message, ...current } = result.error;
  return new ApiError(409, code, message, { details: current });
}

/**
 * The form builder's API (moderators and admins): list, create, load, save the draft (with
 * revision checks), publish versions, compare the draft with the latest version, read a version,
 * duplicate, archive and restore. Every change is audited (summaries, never whole drafts).
 */
export const adminFormRoutes = new Hono<AppEnv>()
  .use('*', staffOnly)

  .get('/', query(formListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(await listForms(c.get('db'), query), 200);
  })

  .post('/', jsonBody(formCreateSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const form = await createForm(db, deps.clock, { title: input.title, ...(input.definition ? { definition: input.definition } : {}), actorId: user.id });
    await auditForm(c, user.id, 'form.create', form.id, { after: { title: form.title, revision: form.revision } });
    return c.json(await formView(db, form), 201);
  })

  .get('/:id', async (c) => {
    const form = await existingForm(c);
    return c.json(await formView(c.get('db'), form), 200);
  })

  .put('/:id/draft', check(formIdChecked), jsonBody(formDraftSaveSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const id = formIdOf(c);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const result = await saveDraft(db, deps.clock, { id, definition: input.definition, revision: input.revision, actorId: user.id });
    switch (result.kind) {
      case 'not_found':
      case 'archived':
      case 'stale':
        throw editRefused(result);
      case 'saved': {
        await auditForm(c, user.id, 'form.draft.save', id, { after: { revision: result.revision, title: result.title } });
        const saved: FormDraftSaved = { revision: result.revision, title: result.title, updatedAt: result.updatedAt.toISOString() };
        return c.json(saved, 200);
      }
    }
  })

  .post('/:id/publish', check(formIdChecked), jsonBody(formPublishSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const id = formIdOf(c);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const result = await publishForm(db, deps.clock, {
      id,
      confirmBreaking: input.confirmBreaking === true,
      ...(input.revision === undefined ? {} : { revision: input.revision }),
      ...(input.fallback === undefined ? {} : { fallback: input.fallback }),
      actorId: user.id,
    });
    switch (result.kind) {
      case 'not_found':
      case 'archived':
      case 'stale':
        throw editRefused(result);
      case 'problems':
        throw new ApiError(400, 'validation_failed', 'Fix the problems before publishing', { fields: result.problems });
      case 'breaking':
        throw new ApiError(409, 'breaking_changes', 'Some changes affect answers already given. Publish again with confirmBreaking to go ahead.', {
          details: { changes: result.changes } satisfies Pick<BreakingChangesError, 'changes'>,
        });
      case 'missing_translations':
        throw new ApiError(
          409,
          'missing_translations',
          'Some texts have no translation. Publish again with fallback "source" to show them in the source language.',
          {
            details: { missing: result.missing } satisfies MissingTranslationsError,
          },
        );
      case 'conflict':
        throw new ApiError(409, 'publish_conflict', 'Someone published this form at the same time; reload it and try again');
      case 'published': {
        await auditForm(c, user.id, 'form.publish', id, {
          after: { version: result.version, changes: result.changes.length, breaking: result.changes.filter((change) => change.breaking).length },
        });
        const published: FormPublished = { version: result.version, changes: result.changes };
        return c.json(published, 201);
      }
    }
  })

  .get('/:id/changes', async (c) => {
    const form = await existingForm(c);
    return c.json(await draftChanges(c.get('db'), form), 200);
  })

  .get('/:id/versions/:version', async (c) => {
    const id = formIdOf(c);
    const version = pathId(c, 'version', 'version');
    const found = await findVersion(c.get('db'), id, version);
    if (!found) throw new ApiError(404, 'not_found', 'No such version');
    return c.json(found, 200);
  })

  .post('/:id/duplicate', async (c) => {
    const user = signedInUser(c.get('user'));
    const source = await existingForm(c);
    const { db, deps } = c.var;
    const form = await duplicateForm(db, deps.clock, source, user.id);
    await auditForm(c, user.id, 'form.duplicate', form.id, { after: { title: form.title, sourceId: source.id } });
    return c.json(await formView(db, form), 201);
  })

  .post('/:id/restore', async (c) => {
    const user = signedInUser(c.get('user'));
    const id = formIdOf(c);
    const { db, deps } = c.var;
    const result = await restoreForm(db, deps.clock, id, user.id);
    if (result.kind === 'not_found') throw noSuchForm();
    if (result.kind === 'restored') {
      await auditForm(c, user.id, 'form.restore', id, { before: { status: 'archived' }, after: { status: result.form.status } });
    }
    return c.json(await formView(db, result.form), 200);
  })

  .delete('/:id', async (c) => {
    const user = signedInUser(c.get('user'));
    const id = formIdOf(c);
    const { db, deps } = c.var;
    const result = await archiveForm(db, deps.clock, id, user.id);
    switch (result.kind) {
      case 'not_found':
        throw noSuchForm();
      case 'in_use':
        throw new ApiError(409, 'in_use', 'A live survey or mission uses this form; close it before archiving the form', {
          details: { usedBy: result.usedBy } satisfies Pick<FormInUseError, 'usedBy'>,
        });
      case 'archived':
        await auditForm(c, user.id, 'form.archive', id, { before: { status: result.previousStatus }, after: { status: 'archived', title: result.form.title } });
        return c.body(null, 204);
      case 'unchanged':
        return c.body(null, 204);
    }
  });
