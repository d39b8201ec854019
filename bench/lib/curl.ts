// `curl -F`: the reference for upload throughput. `Expect: 100-continue` is off, as the extension sends none.
import { spawn } from 'node:child_process';

/** Posts a multipart form (text fields, then `file=@path`) with curl; resolves with curl's own total time in ms. */
export function curlForm(url: string, token: string, fields: ReadonlyArray<readonly [string, string]>, filePath: string, expectStatus = 201): Promise<number> {
  const args = ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-H', `Authorization: Bearer ${token}`, '-H', 'Expect:'];
  for (const [name, value] of fields) args.push('-F', `${name}=${value}`);
  args.push('-F', `file=@${filePath}`, url);
  return new Promise((resolve, reject) => {
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const [status, seconds] = out.trim().split(/\s+/).slice(-2).map(Number);
      if (code !== 0 || status !== expectStatus) reject(new Error(`curl exited ${code}: ${out}`));
      else resolve((seconds as number) * 1000);
    });
  });
}
