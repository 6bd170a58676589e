import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stdout, one object a line. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'fieldwork' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'password', '*.password'], remove: true },
    },
    destination ?? pino.destination({ sync: false }),
  );
}
