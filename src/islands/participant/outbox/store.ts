/**
 * The outbox in IndexedDB (Dexie): `files` (each picked or recorded photo or video, its bytes
 * copied in at once) and `submits` (submits waiting to be sent). Every change writes the summary
 * mirror (./summary.ts) and tells the listeners of this page; other tabs learn of it from the
 * `storage` event of the summary.
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

/** The file could not be kept on the device (IndexedDB full or blocked, or the copy read back differs). */
export class NotSaved extends Error {
  override name = 'NotSaved';
}

const randomId = (): string =>
  typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

export interface Outbox {
  db: OutboxDb;
  /** Copies a file into IndexedDB and reads it back (its size must match) before resolving with its row. */
  saveFile(input: { file: Blob; name: string; questionId: string; formKey: string; kind: 'photo' | 'video'; durationMs?: number | null }): Promise<OutboxFile>;
  updateFile(id: string, changes: Partial<OutboxFile>): Promise<void>;
  removeFile(id: string): Promise<OutboxFile | undefined>;
  file(id: string): Promise<OutboxFile | undefined>;
  files(formKey?: string): Promise<OutboxFile[]>;
  queueSubmit(input: Omit<OutboxSubmit, 'id' | 'state' | 'reason' | 'attempts' | 'notBefore' | 'createdAt'>): Promise<OutboxSubmit>;
  updateSubmit(id: string, changes: Partial<OutboxSubmit>): Promise<void>;
  removeSubmit(id: string): Promise<void>;
  submits(formKey?: string): Promise<OutboxSubmit[]>;
  /** Called after every change (this page). */
  subscribe(listener: () => void): () => void;
  /** Rewrites the summary mirror and tells the listeners. */
  changed(): Promise<void>;
}

export function createOutbox(db: OutboxDb, storage: StorageLike | null, now: () => number = Date.now): Outbox {
  const listeners = new Set<() => void>();
  const changed = async () => {
    const [files, submits] = await Promise.all([db.files.toArray(), db.submits.toArray()]);
    writeSummary(storage, summaryOf(files, submits, now()));
    for (const listener of [...listeners]) listener();
  };
  const byAge = <T extends { createdAt: number }>(rows: T[]) => rows.sort((a, b) => a.createdAt - b.createdAt);
  return {
    db,
    async saveFile({ file, name, questionId, formKey, kind, durationMs = null }) {
      const row: OutboxFile = {
        id: randomId(),
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
      await db.files.update(id, changes);
      await changed();
    },
    async removeFile(id) {
      const row = await db.files.get(id);
      await db.files.delete(id);
      await changed();
      return row;
    },
    file: (id) => db.files.get(id),
    files: async (formKey) => byAge(formKey === undefined ? await db.files.toArray() : await db.files.where('formKey').equals(formKey).toArray()),
    async queueSubmit(input) {
      // One waiting submit per form: a new one replaces the last.
      await db.submits.where('formKey').equals(input.formKey).delete();
      const row: OutboxSubmit = { ...input, id: randomId(), state: 'waiting', reason: null, attempts: 0, notBefore: 0, createdAt: now() };
      await db.submits.add(row);
      await changed();
      return row;
    },
    async updateSubmit(id, changes) {
      await db.submits.update(id, changes);
      await changed();
    },
    async removeSubmit(id) {
      await db.submits.delete(id);
      await changed();
    },
    submits: async (formKey) => byAge(formKey === undefined ? await db.submits.toArray() : await db.submits.where('formKey').equals(formKey).toArray()),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed,
  };
}
