/**
 * The README's policy edit of the demo loop, as data: the demo policy's current content with the loop's
 * rule no longer a red flag. `agent-workbench init` writes it as the policy file under review; on the
 * demo test set it makes three cases right and one wrong (test/unit/trial/demoTestSet.test.ts).
 */
import { DEMO_LOOP_RULE_TITLE } from './demoLoop';
import { DEMO_POLICIES } from './demoPolicies';

interface Rule {
  title?: string;
  flag?: string;
  sub_rules?: Rule[];
}

/** The demo policy's current content with the rule "Promises outcomes outside policy…" a green flag. */
export function demoLoopEditContent(): Record<string, unknown> {
  const versions = DEMO_POLICIES.find((p) => p.key === 'call-quality')!.versions;
  const content = structuredClone(versions[versions.length - 1]!.content);
  const guidelines = content.guidelines as { categories?: { rules?: Rule[] }[] } | undefined;
  const visit = (rules: Rule[] | undefined): void => {
    for (const rule of rules ?? []) {
      if (rule.title === DEMO_LOOP_RULE_TITLE) rule.flag = 'GREEN_FLAG';
      visit(rule.sub_rules);
    }
  };
  for (const category of guidelines?.categories ?? []) visit(category.rules);
  return content;
}
