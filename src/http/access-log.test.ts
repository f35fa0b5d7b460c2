/** A hit's access-log line, written straight to the log stream, is the line pino writes for it. */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { hitLog } from './access-log.ts';

const linesOf = (level = 'info') => {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  // The server's logger options (app.ts): redaction of credentials, JSON lines to a stream.
  const log = pino({ level, redact: ['req.headers.authorization', 'req.headers.cookie'] }, stream);
  return { lines, stream, log };
};
// The time is the only field that differs between two lines written a moment apart.
const untimed = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe('hit access log', () => {
  it('writes the bytes pino writes, URL escapes included', () => {
    const viaPino = linesOf();
    const direct = linesOf();
    const url = '/wp-json/calendar/events/v1/events?search="quoted"\\%E2%9C%93&x=é\u2028';
    hitLog(viaPino.log, undefined)('a-request-id', 'GET', url, 304, 0.0421);
    hitLog(direct.log, direct.stream)('a-request-id', 'GET', url, 304, 0.0421);
    expect(direct.lines).toHaveLength(1);
    expect(untimed(direct.lines[0])).toBe(untimed(viaPino.lines[0]));
    expect(JSON.parse(direct.lines[0])).toMatchObject({ level: 30, reqId: 'a-request-id', req: { method: 'GET', url }, res: { statusCode: 304 }, cache: 'hit', msg: 'request completed' });
  });

  it('keeps the logger\'s bindings and level', () => {
    const quiet = linesOf('warn');
    hitLog(quiet.log, quiet.stream)('id', 'HEAD', '/', 200, 1);
    expect(quiet.lines).toEqual([]);
    const viaPino = linesOf();
    const direct = linesOf();
    hitLog(viaPino.log.child({ replica: 'b' }), undefined)('id', 'HEAD', '/', 200, 1);
    hitLog(direct.log.child({ replica: 'b' }), direct.stream)('id', 'HEAD', '/', 200, 1);
    expect(untimed(direct.lines[0])).toBe(untimed(viaPino.lines[0]));
  });
});
