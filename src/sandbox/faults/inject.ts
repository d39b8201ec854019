/** Serving one request under a fault: delays, answers in place of the service, cut connections, spoiled bodies. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reply } from '../http/router';
import { type RawAnswer, foreignLinks, htmlAnswer, hugeField, insertItem, malformJson, statusAnswer, truncateJson, wrongTypes } from './answers';
import type { FaultPlan, PickedFault } from './faultBook';

/** Runs the operation (routing, auth, handler) and answers its reply; never rejects. */
export type RunOperation = () => Promise<Reply>;
/** Writes a reply the ordinary way. */
export type SendReply = (req: IncomingMessage, res: ServerResponse, reply: Reply) => void;

/** What happened, for the request's log line: the status sent, or `cut`. */
export type Outcome = number | 'cut';

/** Serves a request the rules matched: waits the delay, then applies the fault, if any. */
export async function serveWithFault(req: IncomingMessage, res: ServerResponse, plan: FaultPlan, run: RunOperation, send: SendReply): Promise<Outcome> {
  const fault = plan.fault;
  // Installed before anything waits: the parser may hand over the body at any moment.
  const cut = fault?.rule.kind === 'reset' && fault.rule.when === 'upload' ? cutUpload(req, fault.rule.bytes ?? 0) : undefined;
  if (plan.delayMs > 0 && !(await delay(plan.delayMs, req))) return 'cut';
  if (cut) return serveCutUpload(req, run, cut);
  if (!fault) return sendReply(req, res, await run(), send);
  const rule = fault.rule;
  switch (rule.kind) {
    case 'status':
      await replaced(req, run, rule.after);
      return writeRaw(req, res, statusAnswer(rule));
    case 'html':
      await replaced(req, run, rule.after);
      return writeRaw(req, res, htmlAnswer(rule.status));
    case 'reset':
      if (!rule.after) {
        await drained(req);
        return destroy(req);
      }
      return cutAnswer(req, res, await run(), rule.bytes);
    default:
      return shapeAnswer(req, res, await run(), fault, send);
  }
}

function sendReply(req: IncomingMessage, res: ServerResponse, reply: Reply, send: SendReply): Outcome {
  send(req, res, reply);
  return reply.status;
}

/** Runs the operation when the fault comes `after` it; otherwise only reads the request to its end. */
async function replaced(req: IncomingMessage, run: RunOperation, after: boolean | undefined): Promise<void> {
  if (after) await run();
  else await drained(req);
}

/** Changes a success with a JSON body as the rule says; any other answer goes out unchanged and the rule gets its hit back. */
function shapeAnswer(req: IncomingMessage, res: ServerResponse, reply: Reply, fault: PickedFault, send: SendReply): Outcome {
  const spoiled = reply.status >= 200 && reply.status < 300 && reply.body !== undefined ? spoil(reply, fault) : undefined;
  if (spoiled === undefined) {
    fault.release();
    return sendReply(req, res, reply, send);
  }
  return writeRaw(req, res, { status: reply.status, headers: { ...reply.headers, 'Content-Type': 'application/json' }, text: spoiled });
}

/** The body text a shaping rule makes of a reply, or undefined when the rule has nothing to change in it. */
function spoil(reply: Reply, fault: PickedFault): string | undefined {
  const rule = fault.rule;
  // Rules change the reply's body object in place: it was made for this request alone.
  const text = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
  switch (rule.kind) {
    case 'truncate':
      return truncateJson(JSON.stringify(reply.body));
    case 'malformed':
      return malformJson(JSON.stringify(reply.body));
    case 'wrongTypes':
      return text(wrongTypes(reply.body, rule));
    case 'huge':
      return text(hugeField(reply.body, rule));
    case 'foreignNext':
      return text(foreignLinks(reply.body, rule));
    case 'insert':
      return text(insertItem(reply.body, rule));
    default:
      return undefined;
  }
}

/** Writes an answer exactly as given (unless the connection is already gone). */
function writeRaw(req: IncomingMessage, res: ServerResponse, answer: RawAnswer): Outcome {
  if (res.headersSent || res.destroyed) return 'cut';
  const headers: Record<string, string | number> = { ...answer.headers, 'Content-Length': Buffer.byteLength(answer.text) };
  if (!req.complete) headers.Connection = 'close';
  res.writeHead(answer.status, headers).end(answer.text);
  return answer.status;
}

/** Sends the reply's headers and the first `bytes` of its body (default half, never all of it), then cuts the connection. */
function cutAnswer(req: IncomingMessage, res: ServerResponse, reply: Reply, bytes: number | undefined): Outcome {
  if (res.headersSent || res.destroyed || reply.body === undefined) return destroy(req);
  const body = Buffer.from(JSON.stringify(reply.body));
  const sent = Math.min(bytes ?? Math.floor(body.length / 2), body.length - 1);
  res.writeHead(reply.status, { ...reply.headers, 'Content-Type': 'application/json', 'Content-Length': body.length });
  if (sent > 0) res.write(body.subarray(0, sent));
  else res.flushHeaders();
  // A graceful close sends what was written, then ends the connection short of the promised length.
  req.socket.end();
  return 'cut';
}

function destroy(req: IncomingMessage): Outcome {
  req.socket.destroy();
  return 'cut';
}

/** A pending cut of the request body: `done` settles once the connection is cut (or the client left). */
interface UploadCut {
  done: Promise<void>;
}

/**
 * Cuts the connection once `bytes` of the request body have arrived, and always before its last byte.
 * The body reaches the request through `push()` from Node's HTTP parser; taking over `push` on this one
 * request is the only way to stop at an exact byte whoever reads the body (a JSON reader, busboy, nobody).
 */
function cutUpload(req: IncomingMessage, bytes: number): UploadCut {
  const declared = Number(req.headers['content-length']);
  const limit = Number.isFinite(declared) && declared > 0 ? Math.min(bytes, declared - 1) : bytes;
  const target = req as unknown as { push(chunk: unknown, encoding?: BufferEncoding): boolean };
  const push = target.push.bind(req);
  let seen = 0;
  let cut = false;
  const done = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
  target.push = (chunk, encoding) => {
    if (cut) return false;
    if (chunk !== null) {
      const data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, encoding);
      const keep = Math.max(0, Math.min(data.length, limit - seen));
      seen += keep;
      if (keep === data.length && seen < limit) return push(data);
      if (keep > 0) push(data.subarray(0, keep));
    }
    cut = true;
    // The parser marks the request complete just before the end of the body; it is not, for whoever reads it.
    req.complete = false;
    req.socket.destroy();
    return false;
  };
  return { done };
}

/** Runs the operation while its body is being cut; its reply is never sent, as the connection is gone. */
async function serveCutUpload(req: IncomingMessage, run: RunOperation, cut: UploadCut): Promise<Outcome> {
  await run();
  // The operation may answer without reading its body (a refused query parameter): read on until the cut.
  req.resume();
  await cut.done;
  return 'cut';
}

/** Reads the request body to its end (or until the client leaves), discarding it. */
function drained(req: IncomingMessage): Promise<void> {
  if (req.readableEnded || req.socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    req.once('end', resolve);
    req.socket.once('close', resolve);
    req.resume();
  });
}

/** Waits `ms`; false when the client left (or the server closed the connection) first. */
function delay(ms: number, req: IncomingMessage): Promise<boolean> {
  if (req.socket.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      req.socket.off('close', onClose);
      resolve(true);
    }, ms);
    req.socket.once('close', onClose);
  });
}
