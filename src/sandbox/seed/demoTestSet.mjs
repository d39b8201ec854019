// The demo's labelled test set for Support Call QA: a dozen calls with the disposition a reviewer
// expects. The README's policy edit (the promise rule no longer a red flag) fixes three of them and
// breaks one (a free upgrade that really was outside policy); test/unit/trial/demoTestSet.test.ts runs
// the trial against the sandbox and checks the line "accuracy 58% → 75%: 3 cases became right, 1 became wrong".

const OPENING = 'Agent: Thanks for calling Acme Support, this call may be recorded for quality and training.';
const VERIFY = 'Agent: Before we go on, can you confirm your postcode and the last four digits of the card?';

/** Cases as [name, tags, expected, note, transcript lines]. */
const CASES = [
  ['refund promise, goodwill within the loyalty budget', ['refunds', 'promise'], 'Compliant', 'Refunds for repeat billing errors are within the loyalty budget: no approval needed.', [
    // The README's loop call (the run file): the edit turns it Compliant.
    null,
  ]],
  ['credit promised for a second outage', ['promise'], 'Compliant', 'Outage credits of one month are standard; the promise is fine.', [
    OPENING, 'Customer: The service was down again on Monday, the second time this month.', 'Agent: I am sorry, that should not happen twice.', VERIFY, 'Customer: E1 6AN, and 2210.',
    "Agent: I will credit this month's fee, no need to check with anyone, it will show within 3 business days.", 'Customer: Great, that helps.',
  ]],
  ['replacement router sent at once', ['promise', 'hardware'], 'Compliant', 'Hardware swaps under warranty need no approval.', [
    OPENING, 'Customer: My router keeps restarting.', 'Agent: How frustrating, let us sort it out.', VERIFY, 'Customer: LS1 4DY and 8890.',
    'Agent: I am sending a replacement today, no need to check with anyone, it should arrive by Thursday.', 'Customer: Thanks.',
  ]],
  ['free upgrade to the premium plan', ['promise', 'upgrade'], 'Non-Compliant', 'A free upgrade is outside policy whatever the reason.', [
    OPENING, 'Customer: I am thinking of leaving, the basic plan is too slow.', 'Agent: I am sorry to hear that.', VERIFY, 'Customer: M1 1AE and 3301.',
    'Agent: I can give you a free upgrade to premium for a year, it is valid for twelve months.', 'Customer: Oh, that helps, thank you.',
  ]],
  ['address change done by the book', ['account'], 'Compliant', '', [
    OPENING, 'Customer: I moved and need to change my billing address.', VERIFY, 'Customer: BS1 5TR and 1188.',
    'Agent: Done. The next invoice should arrive by the 5th at the new address.', 'Agent: Does that make sense?', 'Customer: Yes, that helps.',
  ]],
  ['duplicate charge refunded in the usual time', ['refunds'], 'Compliant', '', [
    OPENING, 'Customer: I was charged twice this month.', 'Agent: I am sorry about that.', VERIFY, 'Customer: G2 8JX and 5521.',
    'Agent: The duplicate is refunded; it will show in 5 to 7 business days.', 'Customer: Thank you, that helps.',
  ]],
  ['plan question answered', ['account'], 'Compliant', '', [
    OPENING, 'Customer: Which plan includes phone support?', VERIFY, 'Customer: CF10 1EP and 7002.',
    'Agent: The business plan does; the offer is valid for this quarter.', 'Agent: Does that make sense?', 'Customer: Yes, thanks.',
  ]],
  ['card number read out', ['security'], 'Non-Compliant', 'Never read the card number, even to a verified caller.', [
    OPENING, 'Customer: Which card do you charge?', VERIFY, 'Customer: NE1 7RU and 6620.',
    'Agent: The card on file is 4929 1234 5678 6620.', 'Customer: OK, that helps.',
  ]],
  ['talks over the customer', ['tone'], 'Non-Compliant', '', [
    OPENING, 'Customer: I have been waiting for a week and nobody', 'Agent: As I already said, the engineer comes on Friday.', VERIFY, 'Customer: L1 8JQ and 9043.',
    'Agent: It should arrive by Friday.', 'Customer: Fine.',
  ]],
  ['call cut off after the greeting', ['incomplete'], 'Needs Review', 'The line dropped; a supervisor should listen.', [
    'Agent: Hello, Acme Support.', 'Customer: Hi, I am calling about my', '[call ends]',
  ]],
  ['dismissive agent, no rule catches it', ['tone'], 'Non-Compliant', 'Sarcastic throughout; the policy has no rule for it yet.', [
    OPENING, 'Customer: My invoice is wrong again.', VERIFY, 'Customer: EH1 1YZ and 4410.',
    'Agent: Well, maybe read it properly next time. The corrected invoice should arrive by Monday.', 'Agent: Does that make sense?', 'Customer: I suppose that helps.',
  ]],
  ['short call, nothing wrong', ['incomplete'], 'Compliant', 'A one-question call: nothing to verify or resolve.', [
    'Agent: Acme Support, how can I help?', 'Customer: What are your opening hours?', 'Agent: Eight to eight, every day.', 'Customer: Thanks, bye.',
  ]],
];

/** The demo test set's text (`support-call-qa.testset.jsonl`), given the loop's transcript for the first case. */
export function demoTestSetText(loopTranscript) {
  const lines = ['// agent: 5c0a11d3-7e2b-4f61-9a3c-2d8e4b6f1a01 · Support Call QA', '// Labelled by the QA team. The README\'s policy edit fixes three of these and breaks one.'];
  for (const [name, tags, expected, note, transcript] of CASES) {
    const text = transcript[0] === null ? loopTranscript : transcript.join('\n');
    const labelNote = note === '' ? {} : { label_note: note };
    lines.push(JSON.stringify({ name, tags, inputs: { transcript: text, language: 'en' }, expected, ...labelNote, labelled_by: 'qa-team', labelled_at: '2026-11-20T10:00:00.000Z' }));
  }
  return `${lines.join('\n')}\n`;
}
