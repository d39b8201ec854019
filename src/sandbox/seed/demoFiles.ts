/** Small real files of the demo datasets (text, CSV, JSON, Markdown and valid one-page PDFs). */

/** A minimal but valid one-page PDF showing the given lines (Helvetica, A4), with a correct xref table. */
export function makePdf(lines: string[]): Buffer {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = lines.map((line, i) => `BT /F1 12 Tf 56 ${780 - i * 18} Td (${escape(line)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** One demo dataset and its files. */
export interface DemoDataset {
  name: string;
  creator: number;
  daysAgo: number;
  files: { name: string; bytes: Buffer; metadata?: Record<string, unknown> }[];
}

const transcript = (lines: string[]) => Buffer.from(`${lines.join('\n')}\n`, 'utf8');

/** The demo organization's datasets. */
export const DEMO_DATASETS: DemoDataset[] = [
  {
    name: 'Call transcripts – March',
    creator: 2,
    daysAgo: 21,
    files: [
      { name: 'call-0312-refund.txt', bytes: transcript(['Agent: Thanks for calling Acme Support, this is Sam.', 'Customer: I was charged twice for my March invoice.', 'Agent: I can see both charges of $49.00. I have refunded the second one.', 'Customer: Thank you.']), metadata: { channel: 'phone', region: 'EMEA' } },
      { name: 'call-0314-password.txt', bytes: transcript(['Agent: Acme Support, Priya speaking.', 'Customer: The reset email never arrives.', 'Agent: There was a typo in your address; I have sent a new link.']), metadata: { channel: 'phone', region: 'NA' } },
      { name: 'chat-0318-escalation.txt', bytes: transcript(['Customer: This is the third time I am asking. I want a supervisor.', 'Agent: I understand. I am transferring you to my supervisor now.']), metadata: { channel: 'chat', region: 'EMEA' } },
      { name: 'index.csv', bytes: Buffer.from('file,channel,region,duration_s\ncall-0312-refund.txt,phone,EMEA,312\ncall-0314-password.txt,phone,NA,198\nchat-0318-escalation.txt,chat,EMEA,0\n', 'utf8') },
    ],
  },
  {
    name: 'Sample invoices',
    creator: 4,
    daysAgo: 44,
    files: [
      { name: 'INV-10234.pdf', bytes: makePdf(['INVOICE INV-10234', 'Globex Office Supplies Ltd', 'Bill to: Acme Support', '20 x Headset USB  $39.00  $780.00', 'Total due: $780.00', 'Payment terms: 30 days']), metadata: { expected_class: 'Invoice' } },
      { name: 'RCPT-88412.pdf', bytes: makePdf(['RECEIPT RCPT-88412', 'Paid with Visa ending 4417', 'Coffee beans 2 kg  $54.00', 'Total paid: $54.00']), metadata: { expected_class: 'Receipt' } },
      { name: 'labels.json', bytes: Buffer.from(`${JSON.stringify({ 'INV-10234.pdf': 'Invoice', 'RCPT-88412.pdf': 'Receipt' }, null, 2)}\n`, 'utf8') },
    ],
  },
];

/** The demo user's personal dataset. */
export const PERSONAL_FILES: DemoDataset['files'] = [
  { name: 'notes.md', bytes: Buffer.from('# Rollout notes\n\n- Compare v3 and v4 of Support Call QA on the March transcripts.\n- Ask Priya about the refund limit change.\n', 'utf8') },
];

/** The second organization's dataset. */
export const OTHER_DATASET: DemoDataset = {
  name: 'Dispatch recordings index',
  creator: 5,
  daysAgo: 10,
  files: [{ name: 'dispatch-index.csv', bytes: Buffer.from('recording,driver,depot\nrec-001.wav,D-114,Hamburg\nrec-002.wav,D-207,Rotterdam\n', 'utf8') }],
};
