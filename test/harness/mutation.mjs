// `npm run mutation`: Stryker over the core modules of test/mutation/groups.mjs, one group at a time
// (the machine's cores are shared), each with only its own unit tests. Incremental: a group's
// committed state (test/mutation/state/<group>.json) lets a rerun test only the mutants whose code or
// tests changed. Prints each file's score against its threshold and exits non-zero when one is below.
//
//   npm run mutation                              every group
//   npm run mutation -- --group store             one group (repeatable)
//   npm run mutation -- --mutate 'src/core/store/**'  a subset; its group's tests run
//   npm run mutation -- --since main              the groups whose sources or tests changed since main
//   npm run mutation -- --changed                 the groups whose sources or tests differ from their
//                                                 committed state; the others are judged by that state (CI)
//   npm run mutation -- --force                   retest every mutant (ignore the saved state)
import { spawn, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { breakAt, groups, reportDir, stateFile, targetOf } from '../mutation/groups.mjs';
import { repoRoot } from './paths.mjs';

const stryker = path.join(repoRoot, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');

/** The command line as options. */
function parseArgs(argv) {
  const options = { groups: [], mutate: [], since: undefined, changed: false, force: false, concurrency: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--group') options.groups.push(value());
    else if (arg === '--mutate') options.mutate.push(...value().split(','));
    else if (arg === '--since') options.since = value();
    else if (arg === '--force') options.force = true;
    else if (arg === '--changed') options.changed = true;
    else if (arg === '--concurrency') options.concurrency = value();
    else throw new Error(`Unknown option ${arg}`);
  }
  return options;
}

/** The part of a glob before its first wildcard: what a path it matches starts with. */
function literalPrefix(glob) {
  const at = glob.search(/[*?[{!]/);
  return at < 0 ? glob : glob.slice(0, at);
}

/** True when a group mutates a file that `glob` may name (or a file under it). */
function groupMatches(group, glob) {
  const wanted = literalPrefix(glob);
  return group.mutate.some((pattern) => {
    if (pattern.startsWith('!')) return false;
    const own = literalPrefix(pattern);
    return own.startsWith(wanted) || wanted.startsWith(own);
  });
}

/** The groups whose sources or tests a commit range touched. */
function changedGroups(since) {
  const files = execFileSync('git', ['diff', '--name-only', `${since}...HEAD`], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean);
  const local = execFileSync('git', ['diff', '--name-only', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean);
  const touched = [...files, ...local];
  return groups.filter((group) => touched.some((file) => [...group.mutate, ...group.spec].some((glob) => !glob.startsWith('!') && file.startsWith(literalPrefix(glob)))));
}

/** `a/{b,c}.ts` as `a/b.ts` and `a/c.ts` (one brace group, as the groups use). */
function expandBraces(glob) {
  const match = /\{([^{}]*)\}/.exec(glob);
  if (!match) return [glob];
  return match[1].split(',').map((part) => glob.slice(0, match.index) + part + glob.slice(match.index + match[0].length));
}

/** Files under the literal part of a group's globs that end like them (`.ts`, `.test.ts`). */
function filesOf(globs) {
  const found = new Set();
  for (const glob of globs.flatMap(expandBraces)) {
    if (glob.startsWith('!')) continue;
    const prefix = literalPrefix(glob);
    const ending = glob.endsWith('.test.ts') ? '.test.ts' : '.ts';
    if (!prefix.endsWith('/')) {
      if (fs.existsSync(path.join(repoRoot, prefix))) found.add(prefix);
      continue;
    }
    const dir = path.join(repoRoot, prefix);
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir, { recursive: true })) {
      const file = `${prefix}${String(entry).split(path.sep).join('/')}`;
      if (file.endsWith(ending)) found.add(file);
    }
  }
  for (const glob of globs) if (glob.startsWith('!')) found.delete(glob.slice(1));
  return found;
}

/** True when a group's sources or tests differ from what its committed state was measured on. */
function isStale(group) {
  const file = path.join(repoRoot, stateFile(group));
  if (!fs.existsSync(file)) return true;
  const state = JSON.parse(fs.readFileSync(file, 'utf8'));
  const recorded = { ...Object.fromEntries(Object.entries(state.files).map(([f, r]) => [f, r.source])), ...Object.fromEntries(Object.entries(state.testFiles ?? {}).map(([f, r]) => [f, r.source])) };
  const current = new Set([...filesOf(group.mutate), ...[...filesOf(group.spec)].filter((f) => Object.hasOwn(state.testFiles ?? {}, f) || fs.readFileSync(path.join(repoRoot, f), 'utf8').includes('it('))]);
  if ([...current].some((f) => !Object.hasOwn(recorded, f))) return true;
  return Object.entries(recorded).some(([f, source]) => !fs.existsSync(path.join(repoRoot, f)) || fs.readFileSync(path.join(repoRoot, f), 'utf8') !== source);
}

/** The groups to run, in their configured order, and (with --changed) those judged by their current state. */
function chooseGroups(options) {
  let chosen = groups;
  if (options.groups.length) {
    for (const name of options.groups) if (!groups.some((g) => g.name === name)) throw new Error(`No mutation group named ${name}`);
    chosen = chosen.filter((g) => options.groups.includes(g.name));
  }
  if (options.mutate.length) chosen = chosen.filter((g) => options.mutate.some((glob) => groupMatches(g, glob)));
  if (options.since) {
    const changed = changedGroups(options.since);
    chosen = chosen.filter((g) => changed.includes(g));
  }
  if (options.changed) {
    // A group never measured is a whole run (many minutes): that belongs to the full run, not to CI.
    for (const group of chosen.filter((g) => !fs.existsSync(path.join(repoRoot, stateFile(g))))) {
      console.log(`mutation: ${group.name} has no committed state yet; run \`npm run mutation -- --group ${group.name}\` and commit it.`);
    }
    const measured = chosen.filter((g) => fs.existsSync(path.join(repoRoot, stateFile(g))));
    const stale = measured.filter(isStale);
    return { chosen: stale, judged: measured.filter((g) => !stale.includes(g)) };
  }
  return { chosen, judged: [] };
}

/** Runs Stryker for one group; resolves with its exit code. */
function runStryker(group, options) {
  const args = [stryker, 'run', 'stryker.config.mjs'];
  const env = { ...process.env, MUTATION_GROUP: group.name };
  if (options.concurrency) env.MUTATION_CONCURRENCY = options.concurrency;
  if (options.force) args.push('--force');
  if (options.mutate.length) {
    args.push('--mutate', options.mutate.join(','));
    // A subset's result covers only its files: it starts from the committed state but never
    // overwrites it.
    const subsetState = path.join(reportDir(group), 'subset-incremental.json');
    fs.mkdirSync(path.join(repoRoot, reportDir(group)), { recursive: true });
    if (fs.existsSync(path.join(repoRoot, stateFile(group)))) fs.copyFileSync(path.join(repoRoot, stateFile(group)), path.join(repoRoot, subsetState));
    env.MUTATION_INCREMENTAL_FILE = subsetState;
  }
  // A failed run must not leave the last run's report to be read as this one's.
  fs.rmSync(path.join(repoRoot, reportDir(group), 'mutation.json'), { force: true });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'inherit', env });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Each file's counts and score from a group's JSON report (or its committed state). */
function fileScores(group, reportFile = path.join(reportDir(group), 'mutation.json')) {
  const report = JSON.parse(fs.readFileSync(path.join(repoRoot, reportFile), 'utf8'));
  return Object.entries(report.files).map(([file, result]) => {
    const count = (status) => result.mutants.filter((m) => m.status === status).length;
    const killed = count('Killed') + count('Timeout');
    const survived = count('Survived');
    const noCoverage = count('NoCoverage');
    const valid = killed + survived + noCoverage;
    const score = valid ? (100 * killed) / valid : 100;
    return { file, mutants: valid, killed, survived, noCoverage, ignored: count('Ignored'), score, breakAt: breakAt(group, file), target: targetOf(group, file) };
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const { chosen, judged } = chooseGroups(options);
  const rows = [];
  let failed = false;
  if (options.changed) {
    // Groups whose state is current are judged by it: their scores are what a run would give.
    for (const group of judged) {
      console.log(`mutation: ${group.name} unchanged since its committed state; judged by it.`);
      for (const row of fileScores(group, stateFile(group))) rows.push({ group: group.name, seconds: 0, ...row });
    }
  } else if (!chosen.length) {
    console.log('No configured mutation group matches; nothing to mutate.');
    return 0;
  }
  for (const group of chosen) {
    console.log(`\n━━ mutation: ${group.name} ${'━'.repeat(50 - group.name.length)}`);
    const started = Date.now();
    const code = await runStryker(group, options);
    const seconds = Math.round((Date.now() - started) / 1000);
    if (code !== 0 && !fs.existsSync(path.join(repoRoot, reportDir(group), 'mutation.json'))) {
      console.error(`  ${group.name}: Stryker failed (exit ${code}) without a report.`);
      failed = true;
      continue;
    }
    for (const row of fileScores(group)) rows.push({ group: group.name, seconds, ...row });
    if (code !== 0) failed = true;
  }
  console.log('\n| file | mutants | killed | survived | no coverage | ignored | score | break at |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const below = r.score < r.breakAt;
    if (below) failed = true;
    const floor = r.breakAt < r.target ? ` (target ${r.target}%)` : '';
    console.log(`| ${r.file} | ${r.mutants} | ${r.killed} | ${r.survived} | ${r.noCoverage} | ${r.ignored} | ${r.score.toFixed(1)}%${below ? ' BELOW' : ''} | ${r.breakAt}%${floor} |`);
  }
  const times = [...new Map(rows.map((r) => [r.group, r.seconds])).entries()].map(([g, s]) => `${g} ${s} s`);
  console.log(`\nTime per group: ${times.join(', ')}. Reports: reports/mutation/<group>/index.html`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error.message);
    process.exit(2);
  },
);
