/**
 * The colour of an outcome, the same in every chart and every target: green for a good outcome, red
 * for a bad one, neutral colours for the rest (stable by name). A policy's own colours win where it
 * gives them. Bundled into the page: no imports.
 */

/** Colour classes of the comparison page's stylesheet. */
export type OutcomeColour = 'good' | 'bad' | 'warn' | 'blue' | 'purple' | 'grey';

const NEUTRAL: OutcomeColour[] = ['blue', 'purple', 'grey'];
/** Words that make an outcome bad; checked before the good ones, since "non-compliant" contains "compliant". */
const BAD = /\b(non[-\s]?compliant|not[-\s]compliant|noncompliant|fail(ed|ure)?|reject(ed)?|unresolved|violation|denied|invalid|error|block(ed)?|fraud)\b/i;
const WARN = /\b(escalat(e|ed|ion)|review|partial(ly)?|needs?|warning|unsure|unknown)\b/i;
const GOOD = /\b(compliant|pass(ed)?|approved?|resolved|accept(ed)?|valid|ok|success(ful)?|allowed)\b/i;

/** The colour of an outcome; `policyColours` (outcome name → colour) from the policy's dispositions win where given. */
export function outcomeColour(outcome: string, policyColours?: ReadonlyMap<string, OutcomeColour>): OutcomeColour {
  const own = policyColours?.get(outcome.trim().toLowerCase());
  if (own) return own;
  if (BAD.test(outcome)) return 'bad';
  if (WARN.test(outcome)) return 'warn';
  if (GOOD.test(outcome)) return 'good';
  let hash = 0;
  for (const ch of outcome) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return NEUTRAL[hash % NEUTRAL.length]!;
}
