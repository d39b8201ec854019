import { type FaultRule, readFaultRule } from './faults/index';
import type { SandboxOptions } from './server';
import { SEED_NAMES, type SeedName } from './seed/seedNames';

/** The sandbox's options, as its usage and the command line's `agent-workbench sandbox --help` list them. */
export const OPTIONS = `Options:
  --port N              port to listen on (default 4010; 0 picks a free port)
  --host H              address to bind (default 127.0.0.1)
  --data DIR            keep data in DIR (default .sandbox-data in the current folder)
  --memory              keep everything in memory; nothing is written
  --seed NAME           demo | empty | large (applied only to a new store; default demo)
  --user TOKEN:ORG[,ORG...]
                        add a user with this bearer token in these organizations (repeatable)
  --job-step-ms N       time between job status steps (default 1500)
  --max-upload-bytes N  largest uploaded file (default 2 GiB)
  --fault RULE_JSON     a fault rule in force from the start (repeatable), e.g.
                        '{"path":"/v1/agents/","kind":"status","status":503}'
  --admin-secret S      secret of the fault admin endpoint /__admin/faults (default: random)
  --help                show this text`;

/** The sandbox CLI's usage text (run from the project). */
export const USAGE = `Usage: npm run sandbox -- [options]

Starts a local server that behaves like the agent platform service, with demo data.

${OPTIONS}

When ready, one JSON line goes to stdout:
{"baseUrl":...,"organizationId":...,"token":...,"adminSecret":...}.
Logs go to stderr. Stop with Ctrl+C.`;

/** What the command line asks for: options for the sandbox, or the help text. */
export type CliRequest = { help: true } | { help: false; options: SandboxOptions };

/** Parses the CLI arguments; throws an Error with a one-line message for anything wrong. */
export function parseCliArgs(argv: readonly string[], cwdDataDir: string): CliRequest {
  const options: SandboxOptions = { dataDir: cwdDataDir, users: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith('--'))) throw new Error(`${flag} needs a value.`);
      return v;
    };
    switch (flag) {
      case '--help':
      case '-h':
        return { help: true };
      case '--port':
        options.port = integer(flag, value(), 0, 65_535);
        break;
      case '--host':
        options.host = value();
        break;
      case '--data':
        options.dataDir = value();
        options.memory = false;
        break;
      case '--memory':
        options.memory = true;
        break;
      case '--seed':
        options.seed = seedName(value());
        break;
      case '--user':
        options.users!.push(userSpec(value()));
        break;
      case '--job-step-ms':
        options.jobStepMs = integer(flag, value(), 1, 3_600_000);
        break;
      case '--max-upload-bytes':
        options.maxUploadBytes = integer(flag, value(), 1, Number.MAX_SAFE_INTEGER);
        break;
      case '--fault':
        (options.faults ??= []).push(faultRule(value()));
        break;
      case '--admin-secret':
        options.adminSecret = adminSecret(value());
        break;
      default:
        throw new Error(`unknown option ${flag}.`);
    }
  }
  return { help: false, options };
}

function integer(flag: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new Error(`${flag} takes a whole number from ${min} to ${max}, not "${text}".`);
  return Number(text);
}

function seedName(text: string): SeedName {
  if (!(SEED_NAMES as readonly string[]).includes(text)) throw new Error(`--seed takes ${SEED_NAMES.join(', ')}, not "${text}".`);
  return text as SeedName;
}

function faultRule(text: string): FaultRule {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`--fault takes a rule as JSON, e.g. '{"path":"/v1/agents/","kind":"status","status":503}', not ${text}`);
  }
  return readFaultRule(json, '--fault');
}

function adminSecret(text: string): string {
  if (!/^\S{16,}$/.test(text)) throw new Error('--admin-secret takes at least 16 characters without spaces.');
  return text;
}

function userSpec(text: string): { token: string; organizationIds: string[] } {
  const colon = text.lastIndexOf(':');
  const token = colon < 0 ? '' : text.slice(0, colon);
  const orgs = colon < 0 ? [] : text.slice(colon + 1).split(',').filter((o) => o !== '');
  if (token === '' || orgs.length === 0) throw new Error('--user takes TOKEN:ORG_ID[,ORG_ID...].');
  return { token, organizationIds: orgs };
}
