/**
 * What an editor underlines in a test set: lines that cannot be read, inputs the agent does not take or
 * that a case lacks, from the agent's input definitions (the ones run files are checked with), and an
 * expected disposition the policy the agent applies does not name.
 */
import { sameOutcome } from './compare';
import { parseTestSet } from './testSet';

/** The header line a test set names its agent with (`// agent: <id> · <name>`); JSONL skips `//` lines. */
const AGENT_LINE = /^\s*\/\/\s*agent:\s*([0-9A-Za-z-]+)/;

/** The agent a test set names in its header line, if any. */
export function testSetAgentId(text: string): string | undefined {
  for (const line of text.split(/\r?\n/, 5)) {
    const match = AGENT_LINE.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

/** The header line of a test set made for an agent. */
export function testSetHeader(agentId: string, agentName: string): string {
  return `// agent: ${agentId} · ${agentName.replace(/[\r\n]+/g, ' ')}`;
}

export interface TestSetLineProblem {
  /** 1-based line. */
  line: number;
  message: string;
  severity: 'error' | 'warning';
  /** The text to underline on that line (the whole line when absent or not found). */
  term?: string;
}

/**
 * Problems of a test set's text. Input keys are checked only when the agent's input keys are known, and
 * expected dispositions only when the policy's are known and it names some (a policy that names none
 * says nothing about what a case may expect).
 */
export function checkTestSet(fileName: string, text: string, inputKeys?: readonly string[], dispositions?: readonly string[]): TestSetLineProblem[] {
  const { cases, problems } = parseTestSet(fileName, text);
  const out: TestSetLineProblem[] = problems.map((p) => ({ line: p.line, message: p.message, severity: 'error' }));
  if (dispositions?.length) {
    const csv = /\.csv$/i.test(fileName);
    for (const c of cases) {
      const value = c.expected?.disposition;
      if (value === undefined || value.trim() === '' || dispositions.some((d) => sameOutcome(d, value))) continue;
      out.push({
        line: c.line,
        message: `"${value}" is not a disposition of the policy the agent applies (it names ${dispositions.join(', ')}).`,
        severity: 'warning',
        term: csv ? value : JSON.stringify(value),
      });
    }
  }
  if (!inputKeys) return out.sort((a, b) => a.line - b.line);
  const known = new Set(inputKeys);
  for (const c of cases) {
    for (const key of Object.keys(c.inputs)) {
      if (!known.has(key)) out.push({ line: c.line, message: `The agent takes no input "${key}" (it takes ${inputKeys.join(', ') || 'none'}).`, severity: 'warning', term: `"${key}"` });
    }
    const missing = inputKeys.filter((k) => !(k in c.inputs));
    if (missing.length) out.push({ line: c.line, message: `Missing input${missing.length === 1 ? '' : 's'}: ${missing.join(', ')}.`, severity: 'warning', term: '"inputs"' });
  }
  return out.sort((a, b) => a.line - b.line);
}
