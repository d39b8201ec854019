/**
 * What an editor underlines in a test set: lines that cannot be read, and inputs the agent does not
 * take or that a case lacks, from the agent's input definitions (the ones run files are checked with).
 */
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

/** Problems of a test set's text; input keys are checked only when the agent's input keys are known. */
export function checkTestSet(fileName: string, text: string, inputKeys?: readonly string[]): TestSetLineProblem[] {
  const { cases, problems } = parseTestSet(fileName, text);
  const out: TestSetLineProblem[] = problems.map((p) => ({ line: p.line, message: p.message, severity: 'error' }));
  if (!inputKeys) return out;
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
