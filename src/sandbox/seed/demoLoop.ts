/**
 * The demo's loop from a policy edit to its outcome (docs/service.md, "The sandbox's engine"): a
 * prepared run of "Support Call QA", judged by "Customer Call Quality Standard", whose disposition
 * flips from Non-Compliant to Compliant when the named rule stops being a red flag. Ids are fixed so
 * that tests and the README can name them.
 */

/** The demo agent of the loop (its versions apply the loop's policy through `engine_config.policy_id`). */
export const DEMO_LOOP_AGENT_ID = '5c0a11d3-7e2b-4f61-9a3c-2d8e4b6f1a01';
export const DEMO_LOOP_AGENT_NAME = 'Support Call QA';
/** The demo policy of the loop. */
export const DEMO_LOOP_POLICY_ID = '7d1e0c42-3b9a-4c5e-8f21-6a4b2c9d0e02';
export const DEMO_LOOP_POLICY_NAME = 'Customer Call Quality Standard';
/** Its current version in a new store ("Q2 update: recording disclosure"): the base of the policy file `agent-workbench init` writes. */
export const DEMO_LOOP_POLICY_VERSION_ID = '0fea8881-c0d1-4796-9aaa-d1c62a548b47';
/** The rule to change: a red flag the loop's transcript matches with the quoted phrase below. */
export const DEMO_LOOP_RULE_TITLE = 'Promises outcomes outside policy (refunds over limit, free upgrades)';
export const DEMO_LOOP_RULE_PHRASE = 'no need to check with anyone';

/** A long support call that follows the policy except for one promise outside it. */
export const DEMO_LOOP_TRANSCRIPT = [
  'Agent: Thanks for contacting Acme Support, this is Priya. This call may be recorded for quality and training.',
  'Customer: Hi Priya. I was charged twice for my March invoice and I would like a refund.',
  'Agent: I am sorry to hear that, let me look into it straight away.',
  'Agent: Before we continue, can you confirm your postcode and the last four digits of the card?',
  'Customer: Sure, it is SW1A 2AA and the card ends in 4417.',
  'Agent: Thank you, that matches what I have on file.',
  'Customer: Both charges are $49.00, one on the 3rd and one on the 4th.',
  'Agent: I can see both charges of $49.00 on your card. The second one is a duplicate.',
  'Customer: This is the second time this has happened this year, and it took weeks to sort out last time.',
  'Agent: I understand, and I am sorry you had to call about it again.',
  'Agent: I have refunded the second charge; it will show on your statement in 5 to 7 business days.',
  'Customer: And the one from January? That was never refunded either.',
  'Agent: I will give you a full refund of $240 right now, no need to check with anyone.',
  'Customer: Oh, that is generous. Thank you.',
  'Agent: I have also added a note to your account so the billing team checks the next invoice before it is sent.',
  'Customer: Thank you, that helps.',
  'Agent: Is there anything else I can help with today?',
  'Customer: No, that is all. Have a good day.',
  'Agent: You too, goodbye.',
].join('\n');

/** The inputs of the prepared run (Support Call QA takes `transcript` and `language`). */
export const DEMO_LOOP_INPUTS = { transcript: DEMO_LOOP_TRANSCRIPT, language: 'en' } as const;
/** The disposition of the prepared run with the seeded policy, and once the named rule is no longer a red flag (or is removed). */
export const DEMO_LOOP_DISPOSITION_BEFORE = 'Non-Compliant';
export const DEMO_LOOP_DISPOSITION_AFTER = 'Compliant';
