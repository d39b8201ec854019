import type { SeededRandom } from './random';

/** Conversation topics: what the customer wants and how a good agent resolves it. */
const TOPICS: readonly { customer: string[]; agent: string[] }[] = [
  {
    customer: ['I was charged twice for my March invoice and I would like a refund.', 'Both charges are $49.00, on the 3rd and the 4th.'],
    agent: ['I can see the duplicate charge of $49.00 on your card.', 'I have refunded the second charge; it will show in 5 to 7 business days.'],
  },
  {
    customer: ['I cannot log in, the password reset email never arrives.', 'I checked the spam folder already.'],
    agent: ['Your email address had a typo in it, I have corrected it.', 'I have sent a new reset link, it is valid for 30 minutes.'],
  },
  {
    customer: ['My order has been stuck in transit for two weeks.', 'The tracking page has not changed since Monday.'],
    agent: ['The parcel was held at the regional depot because of a damaged label.', 'I have asked the courier to re-label it, it should arrive by Friday.'],
  },
  {
    customer: ['I want to cancel my subscription before the renewal date.', 'Please make sure I am not charged again.'],
    agent: ['I have cancelled the subscription, it stays active until the end of the billing period.', 'You will not be charged on the renewal date.'],
  },
  {
    customer: ['The blender arrived damaged, the jug is cracked.', 'I have photos of the box.'],
    agent: ['I am sorry it arrived like that. I have arranged a replacement jug.', 'You do not need to send the broken one back.'],
  },
  {
    customer: ['I would like to upgrade to the business plan for my team of twelve.', 'Do you offer annual billing?'],
    agent: ['The business plan is $18 per seat per month, or 15 percent less billed annually.', 'I have sent you a quote for twelve seats with annual billing.'],
  },
  {
    customer: ['I need to change the billing address on my account.', 'We moved offices last month.'],
    agent: ['I have updated the billing address; the next invoice will show the new one.', 'Previous invoices cannot be reissued, but I can send a letter confirming the change.'],
  },
  {
    customer: ['Your colleague promised me a refund last week and nothing happened.', 'This is the third time I am calling about this.'],
    agent: ['I understand how frustrating that is, and I am sorry.', 'The refund was approved but not processed; I have processed it now and escalated the delay.'],
  },
];

const AGENT_NAMES = ['Sam', 'Priya', 'Jordan', 'Lucia', 'Tom', 'Aisha', 'Ken', 'Mara'];
const VERIFY = ['Before we continue, can you confirm your postcode and the last four digits of the card?', 'Could I have your account PIN, please?'];
const RISKY = [
  'Sure, the card on file is 4929 1234 5678 9012, is that the one?',
  'I will give you a full refund of $240 right now, no need to check with anyone.',
  'Honestly that is your fault for not reading the terms.',
];

/** A support transcript: greeting, verification (usually), the topic, and now and then a compliance slip. */
export function transcriptText(random: SeededRandom): string {
  const topic = random.pick(TOPICS);
  const name = random.pick(AGENT_NAMES);
  const lines = [`Agent: Thanks for contacting Acme Support, this is ${name}. This call may be recorded.`, `Customer: Hi. ${topic.customer[0]}`];
  if (random.chance(0.8)) lines.push(`Agent: ${random.pick(VERIFY)}`, 'Customer: Sure, it is 4417 and SW1A 2AA.');
  lines.push(`Customer: ${topic.customer[1]}`, `Agent: ${topic.agent[0]}`);
  if (random.chance(0.12)) lines.push(`Agent: ${random.pick(RISKY)}`);
  lines.push(`Agent: ${topic.agent[1]}`, 'Customer: Thank you, that helps.', 'Agent: Is there anything else I can help with today?');
  return lines.join('\n');
}

const DOC_PREFIXES = [['INV', 'Invoice'], ['RCPT', 'Receipt'], ['PO', 'Purchase Order'], ['CTR', 'Contract'], ['SCAN', 'Other']] as const;

/** A document input: a plausible file name and the URL it was fetched from. */
export function documentInput(random: SeededRandom): { fileName: string; url: string } {
  const [prefix] = random.pick(DOC_PREFIXES);
  const fileName = `${prefix}-${random.int(10_000, 99_999)}.pdf`;
  return { fileName, url: `https://files.acme-support.example/inbox/${fileName}` };
}

const TICKETS = [
  'Order #{n} arrived damaged, the box was crushed and the kettle lid is bent.',
  'I ordered two chargers in order #{n} but only one came.',
  'Order #{n}: wrong colour delivered, I asked for graphite and got white.',
  'The vacuum from order #{n} stops after five minutes. Serial VC-{n}-B.',
];

/** A support ticket body naming an order. */
export function ticketText(random: SeededRandom): string {
  return random.pick(TICKETS).replaceAll('{n}', String(random.int(1000, 9999)));
}

const CUSTOMERS = ['Initech', 'Umbrella Retail', 'Hooli', 'Stark Home', 'Wayne Foods', 'Soylent', 'Wonka Sweets', 'Cyberdyne'];
const CHANNELS = ['phone', 'chat', 'email'];
const REGIONS = ['EMEA', 'NA', 'APAC'];

/** Job metadata: customer, channel and region (the filters' favourite keys) and a ticket number. */
export function jobMetadata(random: SeededRandom, kind: string): Record<string, string> {
  return {
    customer: random.pick(CUSTOMERS),
    channel: kind === 'document' ? 'email' : random.pick(CHANNELS),
    region: random.weighted([[REGIONS[0]!, 5], [REGIONS[1]!, 4], [REGIONS[2]!, 2]]),
    ticket_id: `SUP-${random.int(100_000, 999_999)}`,
  };
}

const FEEDBACK = [
  'Verification was done but the refund timeline was not confirmed.',
  'Good call overall; the agent could have acknowledged the frustration earlier.',
  'Correct classification; the supplier name was read from the letterhead.',
  'The grader missed that the card number was read out.',
  'Evidence quotes are accurate.',
];

/** A grader's feedback sentence. */
export function feedbackText(random: SeededRandom): string {
  return random.pick(FEEDBACK);
}
