import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
const db = await PGlite.create({ extensions: { pg_trgm } });
await db.exec(`create extension if not exists pg_trgm; create table u(e text); create index on u using gin (lower(e) gin_trgm_ops); insert into u select 'user'||g||'@x.com' from generate_series(1,1000) g;`);
console.log((await db.query(`select count(*) from u where lower(e) like '%er12%'`)).rows);
const dump = await db.dumpDataDir();
const db2 = new PGlite({ loadDataDir: dump, extensions: { pg_trgm } });
console.log((await db2.query(`select count(*) from u where lower(e) like '%er12%'`)).rows);
