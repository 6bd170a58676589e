/**
 * The outbox in IndexedDB (Dexie): `files` (each picked or recorded photo or video, its bytes
 * copied in at once) and `submits` (submits waiting to be sent). Every change writes the summary
 * mirror (./summary.ts) and tells the listeners of this page; other tabs learn of it from the
 * `storage` event of the summary.
 *
 * Each row is its account's (`owner`, the signed-in participant's id): on a shared phone, what one
 * person left unsent is neither shown to nor sent under the next person's session, and waits for
 * its owner to sign in again. Every read and write goes through the owner of the moment.
 */
import { Dexie, type EntityTable } from 'dexie';
import { OUTBOX_DB_NAME } from '../../../shared/offline.ts';
import type { StorageLike } from '../../../platform/storage.ts';
import { summaryOf, writeSummary } from './summary.ts';
import type { OutboxFile, OutboxSubmit } from './types.ts';

export type OutboxDb = Dexie & {
  files: EntityTable<OutboxFile, 'id'>;
  submits: EntityTable<OutboxSubmit, 'id'>;
};

/** Opens the outbox database (`indexedDB` given by tests: fake-indexeddb). */
export function openOutboxDb(options: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {}): OutboxDb {
  const db = new Dexie(OUTBOX_DB_NAME, options) as OutboxDb;
  db.version(1).stores({
    files: 'id, formKey, state, createdAt',
    submits: 'id, formKey, state, createdAt',
  });
  return db;
}

/** The file could not be kept on the device (IndexedDB full or blocked, the copy read back differs, or nobody is signed in). */
export class NotSaved extends Error {
  override name = 'NotSaved';
}

const randomId = (): string =>
  typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

export interface Outbox {
  db: OutboxDb;
  /** The signed-in participant's id (rows are theirs), or null: then the outbox shows and takes nothing. */
  owner(): string | null;
  /** Copies a file into IndexedDB and reads it back (its size must match) before resolving with its row. */
  saveFile(input: { file: Blob; name: string; questionId: string; formKey: string; kind: 'photo' | 'video'; durationMs?: number | null }): Promise<OutboxFile>;
  /** Changes, removes or reads a row of the owner's (another person's row is left alone, or undefined). */
  updateFile(id: string, changes: Partial<OutboxFile>): Promise<void>;
  removeFile(id: string): Promise<OutboxFile | undefined>;
  file(id: string): Promise<OutboxFile | undefined>;
  files(formKey?: string): Promise<OutboxFile[]>;
  queueSubmit(input: Omit<OutboxSubmit, 'id' | 'owner' | 'state' | 'reason' | 'attempts' | 'notBefore' | 'createdAt'>): Promise<OutboxSubmit>;
  updateSubmit(id: string, changes: Partial<OutboxSubmit>): Promise<void>;
  removeSubmit(id: string): Promise<void>;
  submits(formKey?: string): Promise<OutboxSubmit[]>;
  /** Called after every change (this page). */
  subscribe(listener: () => void): () => void;
  /** Rewrites the summary mirror and tells the listeners. */
  changed(): Promise<void>;
}

export function createOutbox(db: OutboxDb, storage: StorageLike | null, owner: () => string | null, now: () => number = Date.now): Outbox {
  const listeners = new Set<() => void>();
  const changed = async () => {
    // Everyone's rows: the summary says whose each line is (another person's waits for them).
    const [files, submits] = await Promise.all([db.files.toArray(), db.submits.toArray()]);
    writeSummary(storage, summaryOf(files, submits, now()));
    for (const listener of [...listeners]) listener();
  };
  /** The owner's rows (of one form when `formKey` is given), oldest first. */
  const mine = async <T extends { id: string; owner?: string; formKey: string; createdAt: number }>(
    table: EntityTable<T, 'id'>,
    formKey?: string,
  ): Promise<T[]> => {
    const who = owner();
    if (who === null) return [];
    const rows = formKey === undefined ? await table.toArray() : await table.where('formKey').equals(formKey).toArray();
    return rows.filter((row) => row.owner === who).sort((a, b) => a.createdAt - b.createdAt);
  };
  const isMine = (row: { owner?: string } | undefined): boolean => row !== undefined && owner() !== null && row.owner === owner();
  /** The row `id` if it is the owner's, as a collection to change or delete in one step. */
  const ownRow = <T extends { id: string; owner?: string }>(table: EntityTable<T, 'id'>, id: string) => {
    const who = owner();
    return table
      .where('id')
      .equals(id)
      .filter((row) => who !== null && row.owner === who);
  };
  const signedIn = (): string => {
    const who = owner();
    if (who === null) throw new NotSaved('nobody is signed in');
    return who;
  };
  return {
    db,
    owner,
    async saveFile({ file, name, questionId, formKey, kind, durationMs = null }) {
      const row: OutboxFile = {
        id: randomId(),
        owner: signedIn(),
        questionId,
        formKey,
        kind,
        // A copy of the bytes, not the File (a File from a picker may point at a file the system later removes).
        blob: new Blob([await file.arrayBuffer()], { type: file.type }),
        name,
        type: file.type,
        bytes: file.size,
        durationMs,
        uploadUrl: null,
        mediaId: null,
        state: 'saved',
        progress: 0,
        reason: null,
        final: false,
        attempts: 0,
        notBefore: 0,
        createdAt: now(),
      };
      try {
        await db.files.add(row);
      } catch (error) {
        throw new NotSaved(error instanceof Error ? error.message : String(error));
      }
      const back = await db.files.get(row.id);
      if (!back || back.blob.size !== file.size) {
        await db.files.delete(row.id);
        throw new NotSaved('the copy read back differs');
      }
      await changed();
      return back;
    },
    async updateFile(id, changes) {
      if ((await ownRow(db.files, id).modify(changes)) > 0) await changed();
    },
    async removeFile(id) {
      const row = await db.files.get(id);
      if (!isMine(row)) return undefined;
      await db.files.delete(id);
      await changed();
      return row;
    },
    file: async (id) => {
      const row = await db.files.get(id);
      return isMine(row) ? row : undefined;
    },
    files: (formKey) => mine(db.files, formKey),
    async queueSubmit(input) {
      const who = signedIn();
      // One waiting submit per form and person: a new one replaces the last.
      await db.submits
        .where('formKey')
        .equals(input.formKey)
        .filter((row) => row.owner === who)
        .delete();
      const row: OutboxSubmit = { ...input, id: randomId(), owner: who, state: 'waiting', reason: null, attempts: 0, notBefore: 0, createdAt: now() };
      await db.submits.add(row);
      await changed();
      return row;
    },
    async updateSubmit(id, changes) {
      if ((await ownRow(db.submits, id).modify(changes)) > 0) await changed();
    },
    async removeSubmit(id) {
      if ((await ownRow(db.submits, id).delete()) > 0) await changed();
    },
    submits: (formKey) => mine(db.submits, formKey),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed,
  };
}
