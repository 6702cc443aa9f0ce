/**
 * Structured JSON logs, one object per line. Fields are chosen by the caller; anything that
 * looks like a credential is redacted here as a second line of defence, because a secret in a
 * log is a leak no later fix can undo.
 */
import { writeSync } from 'node:fs';
import { describeError } from './describe-error';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_KEY = /(token|secret|password|api[_-]?key|authorization|value|master|credential)/i;

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export type LogSink = (line: string) => void;

/**
 * Standard output, one write per turn of the event loop rather than per line: under load a
 * process logs many lines a turn, and each write is a system call that cost more than building
 * the line. What is pending is written before the process exits, `process.exit` included; only
 * a process killed outright (SIGKILL) can lose the lines of its last turn.
 */
function bufferedStdout(): LogSink {
  let pending: string[] = [];
  const take = () => {
    const text = pending.join('');
    pending = [];
    return text;
  };
  const flush = () => {
    if (pending.length > 0) process.stdout.write(take());
  };
  // At exit no later turn comes: what is pending is written synchronously.
  process.once('exit', () => {
    if (pending.length === 0) return;
    try {
      writeSync(1, take());
    } catch {
      // Standard output is gone: there is nowhere left to say anything.
    }
  });
  return (line) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(line + '\n');
  };
}

let sink: LogSink = bufferedStdout();

/** Tests capture every line to prove no secret is ever written. */
export function setLogSink(next: LogSink): LogSink {
  const previous = sink;
  sink = next;
  return previous;
}

function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SECRET_KEY.test(key) && key !== 'status') out[key] = '[redacted]';
    else if (value instanceof Error) out[key] = describeError(value);
    else out[key] = value;
  }
  return out;
}

export function createLogger(level: LogLevel = 'info', base: LogFields = {}): Logger {
  const write = (at: LogLevel, msg: string, fields?: LogFields) => {
    if (ORDER[at] < ORDER[level]) return;
    sink(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...base, ...redact(fields ?? {}) }));
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(level, { ...base, ...redact(fields) }),
  };
}
