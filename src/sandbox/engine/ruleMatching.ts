/**
 * Which rules of a policy match which text of a job's inputs. The rule, as docs/service.md says it:
 * a rule with text in double quotes (“…” or "…") in its title or description matches when an input
 * contains one of those quoted phrases; a rule without quotes matches when one line of an input holds at
 * least two thirds of the significant words of its title (an input word counts when it starts with the
 * first five letters of the title's word). Case, accents of quotes and runs of spaces do not matter.
 */
import type { PolicyRule } from './policyRules';

/** One input as the engine reads it: text values as they are, files as their text when they are text. */
export interface EngineInput {
  key: string;
  text: string;
}

/** A rule that matched: the input and the line of it that shows why. */
export interface RuleMatch {
  rule: PolicyRule;
  input: string;
  /** The line of the input where the rule matched (shortened when long). */
  evidence: string;
  /** The quoted phrase found, or the title words found. */
  found: string[];
}

const QUOTED = /[“"]([^”"]{2,200})[”"]/g;
const MAX_EVIDENCE = 240;
/** Words too common to tell rules apart. */
const COMMON = new Set([
  'with', 'that', 'this', 'from', 'have', 'when', 'then', 'than', 'they', 'them', 'their', 'there', 'what', 'which', 'will', 'into',
  'only', 'also', 'been', 'were', 'your', 'over', 'more', 'most', 'some', 'such', 'each', 'every', 'other', 'about', 'after', 'before',
  'does', 'done', 'must', 'should', 'would', 'could', 'without', 'within', 'under', 'never', 'always',
]);

/** The phrases a rule names in quotes (lower case, spaces folded). */
export function quotedPhrases(rule: Pick<PolicyRule, 'title' | 'description'>): string[] {
  const phrases: string[] = [];
  for (const source of [rule.title, rule.description]) {
    for (const match of source.matchAll(QUOTED)) {
      const phrase = fold(match[1]!);
      if (phrase && !phrases.includes(phrase)) phrases.push(phrase);
    }
  }
  return phrases;
}

/** The significant words of a rule's title, as the five-letter stems an input word must start with. */
export function titleStems(title: string): string[] {
  const stems: string[] = [];
  for (const word of words(title)) {
    if (word.length < 4 || COMMON.has(word)) continue;
    const stem = word.slice(0, 5);
    if (!stems.includes(stem)) stems.push(stem);
  }
  return stems;
}

/** One line of an input, read once for every rule: its text, folded text and word beginnings. */
interface IndexedLine {
  input: string;
  line: string;
  folded: string;
  /** The first four and first five letters of each word: what a title stem is compared with. */
  starts: Set<string>;
}

/** Splits the inputs into lines and words once, so that matching is linear in rules × input. */
function indexInputs(inputs: readonly EngineInput[]): IndexedLine[] {
  const indexed: IndexedLine[] = [];
  for (const input of inputs) {
    for (const line of lines(input.text)) {
      const starts = new Set<string>();
      for (const word of words(line)) {
        starts.add(word.slice(0, 4));
        starts.add(word.slice(0, 5));
      }
      indexed.push({ input: input.key, line, folded: fold(line), starts });
    }
  }
  return indexed;
}

/** How the rule matched the inputs, or undefined when it did not. */
export function matchRule(rule: PolicyRule, inputs: readonly EngineInput[]): RuleMatch | undefined {
  return matchIndexed(rule, indexInputs(inputs));
}

/** Every rule that matched, in the policy's order. */
export function matchRules(rules: readonly PolicyRule[], inputs: readonly EngineInput[]): RuleMatch[] {
  const indexed = indexInputs(inputs);
  return rules.flatMap((rule) => {
    const match = matchIndexed(rule, indexed);
    return match ? [match] : [];
  });
}

function matchIndexed(rule: PolicyRule, indexed: readonly IndexedLine[]): RuleMatch | undefined {
  const phrases = quotedPhrases(rule);
  if (phrases.length > 0) return matchPhrases(rule, phrases, indexed);
  // Stems are four or five letters long: a word starts with one exactly when its first letters are it.
  const stems = titleStems(rule.title);
  if (stems.length === 0) return undefined;
  const needed = Math.ceil((stems.length * 2) / 3);
  let best: IndexedLine | undefined;
  let bestCount = needed - 1;
  for (const line of indexed) {
    let count = 0;
    for (const stem of stems) if (line.starts.has(stem)) count++;
    if (count > bestCount) {
      best = line;
      bestCount = count;
      if (count === stems.length) break;
    }
  }
  if (!best) return undefined;
  const { starts } = best;
  return { rule, input: best.input, evidence: shorten(best.line), found: stems.filter((stem) => starts.has(stem)) };
}

function matchPhrases(rule: PolicyRule, phrases: string[], indexed: readonly IndexedLine[]): RuleMatch | undefined {
  for (const { input, line, folded } of indexed) {
    const phrase = phrases.find((p) => folded.includes(p));
    if (phrase) return { rule, input, evidence: shorten(line), found: [phrase] };
  }
  return undefined;
}

function lines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
}

function words(text: string): string[] {
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/** Lower case, curly apostrophes as straight ones, runs of white space as one space. */
function fold(text: string): string {
  return text.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
}

function shorten(line: string): string {
  return line.length > MAX_EVIDENCE ? `${line.slice(0, MAX_EVIDENCE - 1)}…` : line;
}
