import * as z from 'zod/mini';

/**
 * The content of a policy version (interface section 2, "Policy content object"). The code validates
 * with it before saving, and the editor's JSON schema is generated from it (jsonSchemaFiles.ts).
 * Unknown fields are allowed: content written by other tools must not become unsaveable here.
 */
export interface PolicyRule {
  title: string;
  description?: string;
  flag?: 'GREEN_FLAG' | 'RED_FLAG';
  sub_rules?: PolicyRule[];
  [key: string]: unknown;
}

export const FLAGS = ['GREEN_FLAG', 'RED_FLAG'] as const;

const RuleObject = z.looseObject({
    title: z.string().check(z.minLength(1), z.describe('Short name of the rule, e.g. "Verifies the caller\'s identity".')),
    description: z.optional(z.string().check(z.describe('What the rule means and how to judge it.'))),
    flag: z.optional(z.enum(FLAGS).check(z.describe('GREEN_FLAG: behaviour to look for (good). RED_FLAG: behaviour to catch (bad).'))),
    get sub_rules() {
      return z.optional(z.array(PolicyRuleSchema).check(z.describe('Finer rules under this one (same shape, nested as deep as needed).')));
    },
  });
// A recursive schema cannot take a check at definition time (it would read its own shape too early).
z.globalRegistry.add(RuleObject, { id: 'PolicyRule', description: 'A rule of a guideline category.' });
export const PolicyRuleSchema: z.ZodMiniType<PolicyRule> = RuleObject;

export const PolicyCategorySchema = z
  .looseObject({
    title: z.string().check(z.minLength(1), z.describe('Name of the category, e.g. "Compliance".')),
    description: z.optional(z.string().check(z.describe('What the category covers.'))),
    rules: z.optional(z.array(PolicyRuleSchema).check(z.describe('The rules of this category.'))),
  })
  .check(z.describe('A category of guidelines.'));

export const ClassificationSchema = z
  .looseObject({
    name: z.string().check(z.minLength(1), z.describe('Name of the disposition, e.g. "Resolved", "Escalate".')),
    description: z.optional(z.string().check(z.describe('What this classification means.'))),
    prompt: z.optional(z.string().check(z.describe('When to use this classification (guidance for the agent).'))),
  })
  .check(z.describe('One possible disposition (outcome) of a reviewed item.'));

export const PolicyContentSchema = z
  .looseObject({
    guidelines: z.optional(
      z.looseObject({
        categories: z.array(PolicyCategorySchema).check(z.describe('Guideline categories, each with its rules.')),
      }).check(z.describe('Hierarchical guidelines: categories holding rules, rules holding sub-rules.')),
    ),
    instructions: z.optional(z.string().check(z.describe('Free-form instructions for the agent.'))),
    dispositions: z.optional(
      z.looseObject({
        classifications: z.array(ClassificationSchema).check(z.describe('The classifications the agent chooses from.')),
      }).check(z.describe('The possible outcomes (dispositions).')),
    ),
    summary_template: z.optional(
      z.looseObject({
        template: z.string().check(z.describe('Handlebars template of the summary, e.g. "Disposition: {{disposition}}". Preview it with "Open Summary Preview".')),
      }).check(z.describe('Template for generating summaries.')),
    ),
  })
  .check(z.describe('Content of a policy version: guidelines, instructions, dispositions and a summary template (all optional). Saving creates a new version.'));

export type PolicyContent = z.infer<typeof PolicyContentSchema>;
