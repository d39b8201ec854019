// The job view's Markdown blocks (a summary shown rendered, every piece as text), its header (the same
// rows whatever was read), and output costs that only repeat the job's total (not shown).
import * as assert from 'node:assert/strict';
import { decodeEntities, inlineSpans, isMarkdownType, markdownBlocks, MAX_BLOCKS } from '../../../src/core/jobView/markdownBlocks';
import { shownValue } from '../../../src/core/jobView/shownValue';
import { jobViewModel, outputCostsOwn } from '../../../src/core/jobView/viewModel';
import { isJobHostMessage } from '../../../src/core/jobView/protocol';

const JOB_ID = '0b5c2d1e-1111-4222-8333-944455566677';

describe('job view: Markdown summaries', () => {
  it('reads headings, paragraphs, lists, quotes, code and rules into blocks', () => {
    const blocks = markdownBlocks('## Call review\n\n**Issues found**: 2\n\n- Promised a refund\n- No recap\n\n1. first\n2. second\n\n> quoted\n\n```\ncode <b>\n```\n\n---\ntail');
    assert.deepEqual(blocks.map((b) => b.kind), ['heading', 'paragraph', 'list', 'list', 'quote', 'code', 'rule', 'paragraph']);
    assert.deepEqual(blocks[0], { kind: 'heading', level: 2, spans: [{ kind: 'text', text: 'Call review' }] });
    assert.deepEqual(blocks[1], { kind: 'paragraph', spans: [{ kind: 'strong', text: 'Issues found' }, { kind: 'text', text: ': 2' }] });
    assert.deepEqual(blocks[2], { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'Promised a refund' }], [{ kind: 'text', text: 'No recap' }]] });
    assert.equal(blocks[3]!.kind === 'list' && blocks[3]!.ordered, true);
    assert.deepEqual(blocks[5], { kind: 'code', text: 'code <b>' });
  });

  it('keeps markup, links and images as the characters they are', () => {
    const spans = inlineSpans('<img src=x onerror=alert(1)> [link](javascript:alert(1)) ![i](http://x/y.png) *em* `c`');
    assert.deepEqual(spans.map((s) => s.kind), ['text', 'em', 'text', 'code']);
    assert.ok(spans[0]!.text.includes('<img src=x onerror=alert(1)>') && spans[0]!.text.includes('[link](javascript:alert(1))'));
  });

  it('shows HTML entities of a summary (a template that escaped the evidence) as the characters, like the evidence output', () => {
    const blocks = markdownBlocks('**Evidence**: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#60;b&#x3E;\n\n- it&#39;s &hellip;\n\n`&lt;kept&gt;`');
    assert.deepEqual(blocks[0], { kind: 'paragraph', spans: [{ kind: 'strong', text: 'Evidence' }, { kind: 'text', text: ': <script>alert("x")</script> & <b>' }] });
    assert.deepEqual(blocks[1], { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'it\'s …' }]] });
    assert.deepEqual(blocks[2], { kind: 'paragraph', spans: [{ kind: 'code', text: '&lt;kept&gt;' }] }, 'code spans keep what is written');
    assert.equal(decodeEntities('&unknown; &#0; &#xD800; AT&T'), '&unknown; \ufffd \ufffd AT&T');
  });

  it('leaves underscores inside words alone and bounds the number of blocks', () => {
    assert.deepEqual(inlineSpans('snake_case_name and _em_'), [{ kind: 'text', text: 'snake_case_name and ' }, { kind: 'em', text: 'em' }]);
    const many = markdownBlocks(Array.from({ length: MAX_BLOCKS + 50 }, (_, i) => `# h${i}`).join('\n'));
    assert.equal(many.length, MAX_BLOCKS + 1);
    assert.equal(many.at(-1)!.kind, 'paragraph');
  });

  it('shows text/markdown values as Markdown, other text as text', () => {
    assert.ok(isMarkdownType('text/markdown') && isMarkdownType('text/x-markdown; charset=utf-8') && !isMarkdownType('text/plain'));
    assert.equal(shownValue('## Hi', 'text/markdown').kind, 'markdown');
    assert.equal(shownValue('## Hi', 'text/plain').kind, 'text');
    assert.equal(shownValue('', 'text/markdown').kind, 'text');
  });
});

describe('job view: the header and output costs', () => {
  const labels = (fields: { label: string }[]): string[] => fields.map((f) => f.label);

  it('has the same rows for a job read from the list and for one known by its status alone', () => {
    const listed = jobViewModel({
      agentId: 'a', agentName: 'Agent', jobId: JOB_ID, readAt: 0, now: Date.parse('2026-11-20T10:05:00Z'),
      job: { id: JOB_ID, status_code: 3, created_at: '2026-11-20T10:00:00Z', last_updated_at: '2026-11-20T10:00:01.200Z' },
    });
    const byStatus = jobViewModel({ agentId: 'a', agentName: 'Agent', jobId: JOB_ID, readAt: 0, status: { status: 3, timestamp: Date.parse('2026-11-20T10:00:01Z') / 1000 } });
    assert.deepEqual(labels(listed.header), ['Agent', 'Version', 'Created', 'Last update', 'Duration', 'Job ID']);
    assert.deepEqual(labels(byStatus.header), labels(listed.header));
    assert.equal(listed.header.find((f) => f.label === 'Duration')!.value, '1 s');
    assert.equal(byStatus.header.find((f) => f.label === 'Created')!.value, 'not known yet');
  });

  it('does not repeat the job’s total cost on every output', () => {
    assert.equal(outputCostsOwn([0.0042, 0.0042], 0.0042), false);
    assert.equal(outputCostsOwn([0.0042], 0.0042), false);
    assert.equal(outputCostsOwn([0.001, 0.002], 0.003), true);
    assert.equal(outputCostsOwn([0, 0], 0.003), false);
    assert.equal(outputCostsOwn([null, undefined], 0.003), false);
  });
});

describe('job view: the protocol carries Markdown values', () => {
  it('accepts a model whose output is Markdown', () => {
    const model = jobViewModel({
      agentId: 'a', agentName: 'Agent', jobId: JOB_ID, readAt: 0,
      result: { id: JOB_ID, status: 3, result: [{ key: 'summary', description: null, data_type: 'text/markdown', value: '## Call review\n**Issues found**', cost: 0 }] } as never,
    });
    assert.equal(model.outputs[0]!.value.kind, 'markdown');
    assert.ok(isJobHostMessage({ type: 'job', model }));
  });
});
