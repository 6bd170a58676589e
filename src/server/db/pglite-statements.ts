import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

/**
 * Named statements on the embedded database, for the statements `preparedFor` prepares
 * (docs/decisions/026-prepared-statements.md). PGlite's `query` parses, describes and plans its
 * statement anew on every call, in five calls into the engine; a named statement is parsed and
 * described once, then each call is one bind-execute-sync with the plan PostgreSQL keeps
 * (home's missions read: 0.8–1.1 ms through `query`, 0.23 ms named).
 *
 * It runs under PGlite's own two locks, in its order (a transaction in progress finishes first),
 * and reads the answer with PGlite's own parsers, so rows come back as `query` gives them.
 */

/** What is used of PGlite beyond its typed interface (its own `query` does the same). */
interface PgliteInternals {
  readonly closed: boolean;
  readonly parsers: Record<number, (value: string, typeId?: number) => unknown>;
  readonly serializers: Record<number, (value: unknown) => string>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolStream(message: Uint8Array, options?: { syncToFs?: boolean }): Promise<ProtocolMessage[]>;
  syncToFs(): Promise<void>;
}

interface ProtocolMessage {
  name: string;
  dataTypeIDs?: number[];
}

interface Statement {
  name: string;
  paramTypes: readonly number[];
  /** The statement's row description (absent for a statement that returns no rows). */
  rowDescription: ProtocolMessage | null;
}

const serialize = protocol.serialize;
let statementCount = 0;
const statementsOf = new WeakMap<PGlite, Map<string, Promise<Statement>>>();

/** Protocol messages as one buffer (one call into the engine). */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function internals(pg: PGlite): PgliteInternals {
  return pg as unknown as PgliteInternals;
}

/** Runs `fn` as PGlite's `query` runs: after any transaction in progress, one exchange at a time. */
function exclusive<T>(pg: PGlite, fn: () => Promise<T>): Promise<T> {
  const engine = internals(pg);
  if (engine.closed) return Promise.reject(new Error('PGlite is closed'));
  return engine._runExclusiveTransaction(() => engine._runExclusiveQuery(fn));
}

async function prepareStatement(pg: PGlite, text: string): Promise<Statement> {
  const name = `fw_s${++statementCount}`;
  const messages = await exclusive(pg, () =>
    internals(pg).execProtocolStream(concat([serialize.parse({ name, text, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()]), {
      syncToFs: false,
    }),
  );
  return {
    name,
    paramTypes: messages.find((message) => message.name === 'parameterDescription')?.dataTypeIDs ?? [],
    rowDescription: messages.find((message) => message.name === 'rowDescription') ?? null,
  };
}

/** The statement for `text` on this database, parsed once (a failed parse is forgotten, so the next call tries again). */
function statementFor(pg: PGlite, text: string): Promise<Statement> {
  let statements = statementsOf.get(pg);
  if (!statements) {
    statements = new Map();
    statementsOf.set(pg, statements);
  }
  let statement = statements.get(text);
  if (!statement) {
    statement = prepareStatement(pg, text);
    statements.set(text, statement);
    statement.catch(() => statements.delete(text));
  }
  return statement;
}

async function execute<T>(pg: PGlite, statement: Statement, params: readonly unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
  const engine = internals(pg);
  const values = params.map((value, index) => {
    if (value === null || value === undefined) return null;
    const type = statement.paramTypes[index] ?? 0;
    const serializer = options?.serializers?.[type] ?? engine.serializers[type];
    return serializer ? serializer(value) : String(value);
  });
  const messages = await exclusive(pg, async () => {
    const answer = await engine.execProtocolStream(concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]), {
      syncToFs: false,
    });
    await engine.syncToFs();
    return answer;
  });
  const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
  const [result] = parse.parseResults(described as Parameters<typeof parse.parseResults>[0], engine.parsers, options) as Results<T>[];
  if (!result) throw new Error(`no result for statement ${statement.name}`);
  return result;
}

/** A statement that went missing (`DEALLOCATE` from a psql session on the shared socket): prepared again once. */
const isMissingStatement = (error: unknown) => (error as { code?: unknown } | null)?.code === '26000';

/**
 * The client a Drizzle statement prepared on the embedded database runs through: its own text as
 * a named statement, anything else through PGlite's `query`.
 */
export function namedStatementClient(pg: PGlite, text: string): Pick<PGlite, 'query'> {
  return {
    query: async <T>(queryText: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
      if (queryText !== text) return pg.query<T>(queryText, params, options);
      let statement: Statement;
      try {
        statement = await statementFor(pg, text);
      } catch {
        return pg.query<T>(queryText, params, options); // It does not parse: the usual path gives the usual error.
      }
      try {
        return await execute<T>(pg, statement, params, options);
      } catch (error) {
        if (!isMissingStatement(error)) throw error;
        statementsOf.get(pg)?.delete(text);
        return execute<T>(pg, await statementFor(pg, text), params, options);
      }
    },
  };
}
