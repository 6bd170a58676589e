export * from './users.ts';
export * from './sessions.ts';
export * from './tokens.ts';
export * from './feature-flags.ts';
export * from './client-reports.ts';
export * from './rate-limits.ts';
export * from './audit-log.ts';
