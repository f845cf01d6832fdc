// Structured JSON logs: one line per event, with the request id, shop and job when known.
// Values whose key looks secret are masked, so a token can never reach the log by accident.
const SECRET_KEY = /token|secret|password|authorization|hmac|key$/i;

export type LogFields = Record<string, unknown>;
/** Plain functions (no `this`): `(ok ? log.info : log.warn)(...)` and passing `log.error` along are fine. */
export type Logger = {
  info: (event: string, fields?: LogFields) => void;
  warn: (event: string, fields?: LogFields) => void;
  error: (event: string, fields?: LogFields) => void;
  child: (fields: LogFields) => Logger;
};

function scrub(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v instanceof Error) out[k] = { name: v.name, message: v.message, stack: v.stack };
    else out[k] = SECRET_KEY.test(k) ? '[redacted]' : v;
  }
  return out;
}

export function createLogger(base: LogFields = {}): Logger {
  const write = (level: 'info' | 'warn' | 'error', event: string, fields: LogFields = {}) => {
    const line = JSON.stringify({ level, event, time: new Date().toISOString(), ...scrub(base), ...scrub(fields) });
    if (level === 'error') console.error(line);
    else if (level === 'warn') console.warn(line);
    else console.log(line);
  };
  return {
    info: (e, f) => write('info', e, f),
    warn: (e, f) => write('warn', e, f),
    error: (e, f) => write('error', e, f),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}
