import pino from 'pino';

/** JSON logs in production, level from LOG_LEVEL. Failures the seed calls "logged only" go through here. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  base: undefined,
});
