// V8's sampling profiler on the extension host itself (the inspector protocol, in process), for
// finding where a figure's time goes; a profiled run's own times are not representative.
import * as fs from 'node:fs';
import { Session } from 'node:inspector';

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
}

/** Runs `fn` under V8's sampling profiler (in this very process) and writes the profile to `file`. */
export async function profiled<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  try {
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: 50 });
    await post(session, 'Profiler.start');
    const result = await fn();
    const { profile } = await post<{ profile: unknown }>(session, 'Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(profile));
    return result;
  } finally {
    session.disconnect();
  }
}

