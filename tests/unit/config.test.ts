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
    expect(config.trustProxy).toBe(false);
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
    ['1', true],
    ['true', true],
    ['0', false],
  ])('TRUST_PROXY=%s → trustProxy %s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
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
