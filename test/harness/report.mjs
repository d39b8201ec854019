// Prints the results that the runner extension wrote, the way mocha's spec reporter would.

const useColor = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const paint = (code) => (text) => (useColor ? `\u001b[${code}m${text}\u001b[0m` : text);
const green = paint(32);
const red = paint(31);
const cyan = paint(36);
const grey = paint(90);

/**
 * Prints `report` mocha-style and returns the counts; escaped errors count as failures.
 * `mapStack` turns a stack of the bundled suite back into source positions.
 */
export function printReport(report, { mapStack = (stack) => stack, write = (line) => console.log(line) } = {}) {
  const print = (heading, error) => printFailure(heading, error, mapStack, write);
  const failures = [];
  let previous = [];
  for (const test of report.tests) {
    const suites = test.titlePath.slice(0, -1);
    const title = test.titlePath.at(-1);
    const shared = commonPrefix(previous, suites);
    suites.slice(shared).forEach((suite, i) => write(`${'  '.repeat(shared + i + 1)}${suite}`));
    previous = suites;
    const indent = '  '.repeat(suites.length + 1);
    if (test.state === 'passed') write(`${indent}${green('✔')} ${grey(title)} ${grey(`(${test.durationMs}ms)`)}`);
    else if (test.state === 'pending') write(`${indent}${cyan(`- ${title}`)}`);
    else {
      failures.push(test);
      write(`${indent}${red(`${failures.length}) ${title}`)}`);
    }
  }
  const passed = report.tests.filter((test) => test.state === 'passed').length;
  const pending = report.tests.filter((test) => test.state === 'pending').length;
  write('');
  write(`  ${green(`${passed} passing`)} ${grey(`(${Math.round(report.durationMs ?? 0)}ms)`)}`);
  if (pending > 0) write(`  ${cyan(`${pending} pending`)}`);
  if (failures.length > 0) write(`  ${red(`${failures.length} failing`)}`);
  failures.forEach((test, i) => print(`${i + 1}) ${test.titlePath.join(' ')}`, test.error));
  const escaped = [...(report.escaped ?? []), ...(report.fatal ? [report.fatal] : [])];
  for (const error of escaped) {
    print(`${error.kind}${error.during ? ` during "${error.during}"` : ''}`, error);
  }
  const firstLine = (error) => String(error?.message ?? 'no error message').split('\n')[0].slice(0, 200);
  const failedTitles = [
    ...failures.map((test) => `${test.titlePath.join(' ')}: ${firstLine(test.error)}`),
    ...escaped.map((error) => `${error.kind}: ${firstLine(error)}`),
  ];
  return { passed, failed: failures.length + escaped.length, pending, failedTitles };
}

// node:assert puts the expected/actual diff into the message, so the message is printed whole.
function printFailure(heading, error, mapStack, write) {
  write('');
  write(`  ${heading}:`);
  write(red(indentLines(error?.message ?? 'no error message')));
  if (error?.stack) write(grey(indentLines(stackFrames(mapStack(error.stack)))));
}

// The stack starts with the message again; keep only the frames.
function stackFrames(stack) {
  return stack
    .split('\n')
    .filter((line) => line.trim().startsWith('at '))
    .join('\n');
}

function indentLines(text) {
  return text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
}

function commonPrefix(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
