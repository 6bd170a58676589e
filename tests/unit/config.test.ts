import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';

/** The ConfigError loadConfig throws for an environment (fails the test if it does not throw one). */
function configErrorFor(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('loadConfig defaults', () => {
  it('serves on 127.0.0.1:4321 with ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(4321);
    expect(config.host).toBe('127.0.0.1');
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(config.dataDir).toBe(path.resolve(process.cwd(), 'data'));
    expect(config.publicUrl).toBe('http://127.0.0.1:4321');
    expect(config.publicUrlExplicit).toBe(false);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.maintenanceAtStart).toBe(false);
    expect(config.trustProxy).toBe(0);
    expect(config.logLevel).toBe('info');
    expect(config.distDir).toBe(path.resolve(process.cwd(), 'dist'));
    expect(config.mailFrom).toContain('Fieldwork');
  });

  it('reads only the environment it is given', () => {
    expect(loadConfig({ PATH: '/usr/bin', HOME: '/root', UNRELATED: 'x' }).port).toBe(4321);
  });
});

describe('loadConfig overrides', () => {
  it('takes PORT and HOST, and derives the public URL from them', () => {
    const config = loadConfig({ PORT: '8080', HOST: 'fieldwork.internal' });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('fieldwork.internal');
    expect(config.publicUrl).toBe('http://fieldwork.internal:8080');
    expect(config.publicUrlExplicit).toBe(false);
  });

  it('accepts port 0 and 65535', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
  });

  it('shows 127.0.0.1 in the derived URL when listening on every interface', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).publicUrl).toBe('http://127.0.0.1:4321');
    expect(loadConfig({ HOST: '::' }).publicUrl).toBe('http://127.0.0.1:4321');
  });

  it('brackets an IPv6 host in the derived URL', () => {
    expect(loadConfig({ HOST: '::1', PORT: '5000' }).publicUrl).toBe('http://[::1]:5000');
  });

  it('resolves DATA_DIR and DIST_DIR to absolute paths', () => {
    expect(loadConfig({ DATA_DIR: 'var/fw' }).dataDir).toBe(path.resolve(process.cwd(), 'var/fw'));
    expect(loadConfig({ DATA_DIR: '/srv/fieldwork' }).dataDir).toBe(path.resolve('/srv/fieldwork'));
    expect(loadConfig({ DIST_DIR: '/srv/site' }).distDir).toBe(path.resolve('/srv/site'));
  });

  it.each(['postgres://u:p@db:5432/fw', 'postgresql://db/fw'])('takes DATABASE_URL %s', (url) => {
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it.each(['smtp://mail:25', 'smtps://u:p@mail:465'])('takes SMTP_URL %s', (url) => {
    expect(loadConfig({ SMTP_URL: url }).smtpUrl).toBe(url);
  });

  it('takes PUBLIC_URL without its trailing slashes', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://fieldwork.example.org/', PORT: '9000' });
    expect(config.publicUrl).toBe('https://fieldwork.example.org');
    expect(config.publicUrlExplicit).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'https://example.org/app//' }).publicUrl).toBe('https://example.org/app');
    expect(loadConfig({ PUBLIC_URL: 'https://example.org:8443' }).publicUrl).toBe('https://example.org:8443');
  });

  it.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
  ])('MAINTENANCE=%s → maintenanceAtStart %s', (value, expected) => {
    expect(loadConfig({ MAINTENANCE: value }).maintenanceAtStart).toBe(expected);
  });

  it.each([
    ['1', 1],
    ['true', 1],
    ['2', 2],
    ['0', 0],
    ['false', 0],
  ])('TRUST_PROXY=%s → trustProxy %s (proxies in front)', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it('requires staff to have a second factor unless REQUIRE_STAFF_SECOND_FACTOR=0, and takes a 32-byte SECOND_FACTOR_KEY in hex or base64', () => {
    expect(loadConfig({}).requireStaffSecondFactor).toBe(true);
    expect(loadConfig({ REQUIRE_STAFF_SECOND_FACTOR: '0' }).requireStaffSecondFactor).toBe(false);
    expect(loadConfig({ REQUIRE_STAFF_SECOND_FACTOR: 'true' }).requireStaffSecondFactor).toBe(true);
    const key = Buffer.alloc(32, 7);
    expect(loadConfig({}).secondFactorKey).toBeUndefined();
    expect(loadConfig({ SECOND_FACTOR_KEY: key.toString('hex') }).secondFactorKey).toEqual(key);
    expect(loadConfig({ SECOND_FACTOR_KEY: key.toString('base64') }).secondFactorKey).toEqual(key);
    expect(loadConfig({ SECOND_FACTOR_KEY: key.toString('base64url') }).secondFactorKey).toEqual(key);
    for (const bad of ['short', Buffer.alloc(16).toString('hex'), Buffer.alloc(33).toString('base64')]) {
      expect(configErrorFor({ SECOND_FACTOR_KEY: bad }).message).toContain('SECOND_FACTOR_KEY: must be 32 bytes');
    }
    expect(configErrorFor({ REQUIRE_STAFF_SECOND_FACTOR: 'no' }).message).toContain('REQUIRE_STAFF_SECOND_FACTOR');
  });

  it('takes a 32-byte REWARD_DELIVERY_KEY as SECOND_FACTOR_KEY is written; unset, the kept one is used', () => {
    const key = Buffer.alloc(32, 9);
    expect(loadConfig({}).rewardDeliveryKey).toBeUndefined();
    expect(loadConfig({ REWARD_DELIVERY_KEY: key.toString('hex') }).rewardDeliveryKey).toEqual(key);
    expect(configErrorFor({ REWARD_DELIVERY_KEY: 'short' }).message).toContain('REWARD_DELIVERY_KEY: must be 32 bytes');
  });

  it('takes LOG_LEVEL and MAIL_FROM', () => {
    const config = loadConfig({ LOG_LEVEL: 'debug', MAIL_FROM: 'Team <team@example.org>' });
    expect(config.logLevel).toBe('debug');
    expect(config.mailFrom).toBe('Team <team@example.org>');
  });
});

describe('loadConfig with blank values', () => {
  it('treats every empty variable as unset', () => {
    const config = loadConfig({
      PORT: '',
      HOST: '',
      DATA_DIR: '',
      DATABASE_URL: '',
      PUBLIC_URL: '',
      SMTP_URL: '',
      MAIL_FROM: '',
      LOG_LEVEL: '',
      MAINTENANCE: '',
      TRUST_PROXY: '',
      DIST_DIR: '',
    });
    expect(config).toEqual(loadConfig({}));
    expect(config.publicUrlExplicit).toBe(false);
  });

  it('treats whitespace-only values as unset and trims the others', () => {
    expect(loadConfig({ PORT: '  ', HOST: ' ' }).port).toBe(4321);
    expect(loadConfig({ PORT: ' 8080 ' }).port).toBe(8080);
  });
});

describe('loadConfig with invalid values', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['PORT', '0x10'],
    ['PORT', '1e3'],
    ['DATABASE_URL', 'mysql://x'],
    ['SMTP_URL', 'http://x'],
    ['PUBLIC_URL', 'not a url'],
    ['LOG_LEVEL', 'verbose'],
    ['MAINTENANCE', 'yes'],
    ['TRUST_PROXY', 'on'],
    ['TRUST_PROXY', '11'],
    ['TRUST_PROXY', '-1'],
  ])('throws a ConfigError naming %s for %j', (name, value) => {
    const error = configErrorFor({ [name]: value });
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`${name}:`);
  });

  it('lists every bad variable at once, and only those', () => {
    const error = configErrorFor({ PORT: 'abc', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://x', HOST: 'ok.example' });
    expect(error.message).toContain('PORT:');
    expect(error.message).toContain('DATABASE_URL:');
    expect(error.message).toContain('SMTP_URL:');
    expect(error.message).not.toContain('HOST');
  });

  it('says what DATABASE_URL and SMTP_URL must look like', () => {
    expect(configErrorFor({ DATABASE_URL: 'mysql://x' }).message).toContain('postgres://');
    expect(configErrorFor({ SMTP_URL: 'http://x' }).message).toContain('smtp://');
  });
});

describe('loadConfig for scale-out (static pages, processes, photo store)', () => {
  it('defaults to serving the pages, one process, photos under DATA_DIR/uploads on disk', () => {
    const config = loadConfig({});
    expect(config.serveStatic).toBe(true);
    expect(config.webConcurrency).toBe(1);
    expect(config.mediaDir).toBe(path.resolve(process.cwd(), 'data', 'uploads'));
    expect(config.mediaStore).toBe('local');
    expect(config.s3).toBeUndefined();
    expect(loadConfig({ DATA_DIR: '/srv/fieldwork' }).mediaDir).toBe(path.resolve('/srv/fieldwork/uploads'));
  });

  it('takes MEDIA_DIR, resolved to an absolute path', () => {
    expect(loadConfig({ MEDIA_DIR: 'shared/photos' }).mediaDir).toBe(path.resolve(process.cwd(), 'shared/photos'));
    expect(loadConfig({ MEDIA_DIR: '/mnt/photos', DATA_DIR: '/srv/fieldwork' }).mediaDir).toBe(path.resolve('/mnt/photos'));
  });

  it.each([
    ['0', false],
    ['false', false],
    ['1', true],
    ['true', true],
    ['', true],
  ])('SERVE_STATIC=%j → serveStatic %s', (value, expected) => {
    expect(loadConfig({ SERVE_STATIC: value }).serveStatic).toBe(expected);
  });

  it('takes WEB_CONCURRENCY with DATABASE_URL', () => {
    expect(loadConfig({ WEB_CONCURRENCY: '4', DATABASE_URL: 'postgres://db/fw' }).webConcurrency).toBe(4);
    expect(loadConfig({ WEB_CONCURRENCY: '32', DATABASE_URL: 'postgres://db/fw' }).webConcurrency).toBe(32);
    expect(loadConfig({ WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
  });

  it('refuses more than one process on the embedded database, and says why', () => {
    const error = configErrorFor({ WEB_CONCURRENCY: '2' });
    expect(error.message).toContain('WEB_CONCURRENCY:');
    expect(error.message).toContain('embedded database');
    expect(error.message).toContain('DATABASE_URL');
    // A blank DATABASE_URL is no database either.
    expect(configErrorFor({ WEB_CONCURRENCY: '2', DATABASE_URL: ' ' }).message).toContain('embedded database');
  });

  it.each(['0', '33', 'two', '-1', '1.5', '100'])('refuses WEB_CONCURRENCY=%j', (value) => {
    const error = configErrorFor({ WEB_CONCURRENCY: value, DATABASE_URL: 'postgres://db/fw' });
    expect(error.message).toContain('WEB_CONCURRENCY:');
    expect(error.message).toContain('1 to 32');
  });

  it.each(['ftp', 'S3', 'disk'])('refuses MEDIA_STORE=%j', (value) => {
    expect(configErrorFor({ MEDIA_STORE: value }).message).toContain('MEDIA_STORE:');
  });

  it('needs S3_BUCKET with MEDIA_STORE=s3, and lists it with the other problems', () => {
    expect(configErrorFor({ MEDIA_STORE: 's3' }).message).toContain('S3_BUCKET: must be set when MEDIA_STORE=s3');
    const both = configErrorFor({ MEDIA_STORE: 's3', WEB_CONCURRENCY: '3' }).message;
    expect(both).toContain('S3_BUCKET:');
    expect(both).toContain('WEB_CONCURRENCY:');
  });

  it.each(['A', 'Upper-Case', 'has_underscore', 'ab', '-leading'])('refuses S3_BUCKET=%j', (bucket) => {
    expect(configErrorFor({ MEDIA_STORE: 's3', S3_BUCKET: bucket }).message).toContain('S3_BUCKET:');
  });

  it('ignores the S3 settings with MEDIA_STORE=local', () => {
    expect(loadConfig({ S3_BUCKET: 'photos', S3_ENDPOINT: 'http://minio:9000' }).s3).toBeUndefined();
  });

  it('reads an AWS bucket: the region, virtual-host addressing, signed links to the regional endpoint', () => {
    const config = loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'fieldwork-photos', S3_REGION: 'eu-west-1' });
    expect(config.mediaStore).toBe('s3');
    expect(config.s3).toEqual({
      bucket: 'fieldwork-photos',
      prefix: '',
      region: 'eu-west-1',
      endpoint: undefined,
      publicEndpoint: 'https://s3.eu-west-1.amazonaws.com',
      forcePathStyle: false,
      delivery: 'redirect',
    });
    expect(loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'photos' }).s3?.region).toBe('us-east-1');
    expect(loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'photos' }).s3?.publicEndpoint).toBe('https://s3.us-east-1.amazonaws.com');
  });

  it('reads an S3-compatible endpoint: path style by default, signed links to the endpoint unless told otherwise', () => {
    const config = loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'photos', S3_ENDPOINT: 'http://minio:9000/' });
    expect(config.s3?.endpoint).toBe('http://minio:9000');
    expect(config.s3?.forcePathStyle).toBe(true);
    expect(config.s3?.publicEndpoint).toBe('http://minio:9000');
    const split = loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'photos', S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_ENDPOINT: 'https://photos.example.org/' });
    expect(split.s3?.publicEndpoint).toBe('https://photos.example.org');
    expect(split.s3?.endpoint).toBe('http://minio:9000');
  });

  it.each([
    [{ S3_ENDPOINT: 'https://r2.example.com', S3_FORCE_PATH_STYLE: '0' }, false],
    [{ S3_ENDPOINT: 'https://r2.example.com', S3_FORCE_PATH_STYLE: 'false' }, false],
    [{ S3_FORCE_PATH_STYLE: '1' }, true],
    [{ S3_FORCE_PATH_STYLE: 'true' }, true],
  ])('S3_FORCE_PATH_STYLE overrides the default: %j → %s', (env, expected) => {
    expect(loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'photos', ...env }).s3?.forcePathStyle).toBe(expected);
  });

  it.each([
    ['fw', 'fw/'],
    ['fw/', 'fw/'],
    ['/fw/', 'fw/'],
    ['//fw', 'fw/'],
    ['a/b', 'a/b/'],
    ['', ''],
  ])('normalises S3_PREFIX %j to %j', (value, expected) => {
    expect(loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'photos', S3_PREFIX: value }).s3?.prefix).toBe(expected);
  });

  it('refuses an S3_PREFIX with other characters', () => {
    expect(configErrorFor({ MEDIA_STORE: 's3', S3_BUCKET: 'photos', S3_PREFIX: 'a b' }).message).toContain('S3_PREFIX:');
  });

  it('S3_DELIVERY=stream has no public endpoint (the API relays the photos)', () => {
    const config = loadConfig({
      MEDIA_STORE: 's3',
      S3_BUCKET: 'photos',
      S3_ENDPOINT: 'http://minio:9000',
      S3_PUBLIC_ENDPOINT: 'https://photos.example.org',
      S3_DELIVERY: 'stream',
    });
    expect(config.s3?.delivery).toBe('stream');
    expect(config.s3?.publicEndpoint).toBeUndefined();
    expect(configErrorFor({ MEDIA_STORE: 's3', S3_BUCKET: 'photos', S3_DELIVERY: 'proxy' }).message).toContain('S3_DELIVERY:');
  });

  it.each([
    ['S3_ENDPOINT', 'minio:9000'],
    ['S3_ENDPOINT', 'ftp://minio:9000'],
    ['S3_PUBLIC_ENDPOINT', 'photos.example.org'],
    ['S3_FORCE_PATH_STYLE', 'yes'],
  ])('refuses %s=%j', (name, value) => {
    expect(configErrorFor({ MEDIA_STORE: 's3', S3_BUCKET: 'photos', [name]: value }).message).toContain(`${name}:`);
  });
});
