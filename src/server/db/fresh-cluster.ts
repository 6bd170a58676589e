/**
 * A new embedded database starts from a copy of a freshly initialised PostgreSQL cluster shipped
 * with the code, not from PGlite's initdb (docs/decisions/028-embedded-memory.md).
 *
 * PGlite runs initdb in a second PostgreSQL instance beside the first, and keeps a copy of that
 * instance's whole 128 MiB WebAssembly memory to reset it between the bootstrap's steps: a first
 * start peaked at ~610 MiB (1.1 GiB without decision 028's V8 flags) against ~170 MiB for opening an
 * existing database, and a 512 MiB container was killed on its first start. The shipped cluster is
 * unpacked into `DATA_DIR/pgdata` a file at a time (a few MB held at once), then opened as an
 * existing database: a first start then costs what a second one does, and its migrations.
 * (PGlite's own `loadDataDir` holds the whole tar and its files at once, ~150 MiB more; it is used
 * only for a database in memory, the tests'.)
 *
 * The file is PGlite's own initdb output (`dumpDataDir` of a new cluster, checkpointed, brotli),
 * made by `npm run db:cluster` for one PGlite version and named after it. A PGlite without its file
 * (upgraded, and the file not yet made again) creates the cluster with initdb as before, with a
 * warning; `tests/unit/fresh-cluster.test.ts` fails until the file is made again.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import tarStream from 'tar-stream';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The installed PGlite's version (its package.json, which the package does not export). */
export const PGLITE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** The shipped cluster for a PGlite version. */
export const clusterFile = (version: string = PGLITE_VERSION): string => path.join(HERE, `fresh-cluster-pglite-${version}.tar.br`);

/**
 * initdb's own PostgreSQL runs with 16 MB of shared buffers instead of the 128 MB initdb picks (the
 * cluster's settings are not affected: PGLITE_OPTIONS writes postgresql.conf at every start). Used
 * where initdb still runs: making the file, and a PGlite version without one.
 */
export const INITDB_OPTIONS = { initDbStartParams: ['-c', 'shared_buffers=16MB'] } satisfies PGliteOptions;

/** A marker beside `pgdata` while a new cluster is written: found at start, the half-written cluster is removed and made again. */
const creatingMarker = (dataDir: string): string => path.join(dataDir, 'pgdata.creating');

/** Writes the shipped cluster into `pgdata`, streaming, an entry at a time: folders and files only, each kept inside `pgdata`. */
async function unpackCluster(file: string, pgdata: string): Promise<void> {
  fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  const extract = tarStream.extract();
  extract.on('entry', (header, entry, next) => {
    const target = path.join(pgdata, path.normalize(`/${header.name}`));
    const write = async () => {
      if (header.type === 'directory') {
        fs.mkdirSync(target, { recursive: true, mode: 0o700 });
        entry.resume();
        return;
      }
      if (header.type !== 'file') throw new Error(`${path.basename(file)}: unexpected ${header.type} ${header.name}`);
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      await pipeline(entry, fs.createWriteStream(target, { mode: 0o600 }));
    };
    write().then(
      () => next(),
      (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
    );
  });
  await pipeline(fs.createReadStream(file), zlib.createBrotliDecompress(), extract);
}

/**
 * Opens the embedded database of `dataDir` (null: in memory), creating its cluster first when
 * there is none: from the shipped file, or with initdb when this PGlite version has none.
 */
export async function openPglite(
  dataDir: string | null,
  options: PGliteOptions,
  warn: (message: string) => void = (message) => process.emitWarning(message),
): Promise<PGlite> {
  const pgdata = dataDir ? path.join(dataDir, 'pgdata') : null;
  if (pgdata && dataDir) {
    const marker = creatingMarker(dataDir);
    const interrupted = fs.existsSync(marker);
    if (!interrupted && fs.existsSync(path.join(pgdata, 'PG_VERSION'))) return PGlite.create(pgdata, options);
    if (interrupted) fs.rmSync(pgdata, { recursive: true, force: true });
    fs.writeFileSync(marker, '');
  }
  const file = clusterFile();
  let client: PGlite;
  if (fs.existsSync(file) && pgdata) {
    await unpackCluster(file, pgdata);
    client = await PGlite.create(pgdata, options);
  } else if (fs.existsSync(file)) {
    // In memory: PGlite loads the tar itself, from a file (`openAsBlob`: read once, by PGlite).
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fresh-cluster-'));
    try {
      const tar = path.join(scratch, 'pgdata.tar');
      await pipeline(fs.createReadStream(file), zlib.createBrotliDecompress(), fs.createWriteStream(tar));
      client = await PGlite.create({ ...options, loadDataDir: await fs.openAsBlob(tar) });
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  } else {
    warn(
      `No shipped database cluster for PGlite ${PGLITE_VERSION} (${path.basename(file)}): creating it with initdb, which needs about 500 MiB once. Run \`npm run db:cluster\` to make the file.`,
    );
    client = pgdata ? await PGlite.create(pgdata, { ...options, ...INITDB_OPTIONS }) : await PGlite.create({ ...options, ...INITDB_OPTIONS });
  }
  if (dataDir) fs.rmSync(creatingMarker(dataDir), { force: true });
  return client;
}

/** `npm run db:cluster`: makes the shipped cluster for the installed PGlite with its initdb, and removes the other versions' files. */
export async function writeClusterFile(): Promise<string> {
  const client = await PGlite.create(INITDB_OPTIONS);
  // Every page written to the data files, so loading the copy replays no log.
  await client.exec('CHECKPOINT');
  const tar = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
  await client.close();
  const packed = zlib.brotliCompressSync(tar, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_LGWIN]: 24, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: tar.length },
  });
  const file = clusterFile();
  fs.writeFileSync(file, packed);
  for (const name of fs.readdirSync(HERE))
    if (/^fresh-cluster-pglite-.+\.tar\.br$/.test(name) && name !== path.basename(file)) fs.rmSync(path.join(HERE, name));
  return file;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const file = await writeClusterFile();
  console.log(`Wrote ${path.relative(process.cwd(), file)} (${fs.statSync(file).size} bytes) for PGlite ${PGLITE_VERSION}.`);
}
