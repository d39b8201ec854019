import * as assert from 'node:assert/strict';
import { MAX_SAMPLE_MESSAGE_CHARS, MAX_SHOWN_CHARS, isHostMessage, parseWebviewMessage } from '../../../src/core/summary/previewProtocol';
import { XSS_PAYLOAD, renderView } from './helpers/policies';

describe('messages from the preview webview', () => {
  it('accepts the handshake, render acknowledgements, sample edits and the known actions', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'shown', seq: 3, text: '<b>x</b>' }), { type: 'shown', seq: 3, text: '<b>x</b>' });
    assert.deepEqual(parseWebviewMessage({ type: 'sampleChanged', key: 'policy:1', text: '{"a":1}' }), { type: 'sampleChanged', key: 'policy:1', text: '{"a":1}' });
    for (const action of ['fillFromJob', 'resetSample', 'copyOutput', 'revealTemplateError', 'showSource']) {
      assert.deepEqual(parseWebviewMessage({ type: 'action', action }), { type: 'action', action });
    }
  });

  it('refuses anything else: unknown types or actions, wrong field types, extra fields, oversized samples', () => {
    const refused: unknown[] = [
      null,
      'ready',
      [],
      { type: 'render' },
      { type: 'ready', extra: 1 },
      { type: 'sampleChanged', key: 'policy:1', text: 42 },
      { type: 'sampleChanged', key: 'policy:1' },
      { type: 'sampleChanged', text: '{}' },
      { type: 'sampleChanged', key: 'policy:1', text: 'x'.repeat(MAX_SAMPLE_MESSAGE_CHARS + 1) },
      { type: 'action', action: 'runCommand' },
      { type: 'action', action: 'copyOutput', command: 'workbench.action.terminal.new' },
      { type: 'action', action: { toString: () => 'copyOutput' } },
      { type: 'shown', seq: -1, text: '' },
      { type: 'shown', seq: 1.5, text: '' },
      { type: 'shown', seq: 1, text: 'x'.repeat(MAX_SHOWN_CHARS + 1) },
    ];
    for (const value of refused) assert.equal(parseWebviewMessage(value), undefined, JSON.stringify(value));
  });
});

describe('messages to the preview webview', () => {
  it('are checked before sending: renders, samples and the idle message', () => {
    assert.equal(isHostMessage({ type: 'render', seq: 1, view: renderView() }), true);
    assert.equal(isHostMessage({ type: 'render', seq: 1, view: renderView({ output: null, templateError: { message: 'x', line: 2, column: 5 } }) }), true);
    assert.equal(isHostMessage({ type: 'sample', sample: { key: 'policy:1', text: '{}', origin: 'Built from the policy', remembered: true } }), true);
    assert.equal(isHostMessage({ type: 'idle', message: 'Open a policy' }), true);
  });

  it('catch malformed ones: wrong kinds, positions that are not line numbers, missing fields', () => {
    assert.equal(isHostMessage({ type: 'render', seq: 1, view: renderView({ sourceKind: 'remote' as 'file' }) }), false);
    assert.equal(isHostMessage({ type: 'render', seq: 1, view: renderView({ templateError: { message: 'x', line: 0, column: 1 } }) }), false);
    assert.equal(isHostMessage({ type: 'render', seq: 1, view: renderView({ missingFields: [1 as unknown as string] }) }), false);
    assert.equal(isHostMessage({ type: 'render', seq: 1, view: { ...renderView(), output: undefined } }), false);
    assert.equal(isHostMessage({ type: 'sample', sample: { text: '{}' } }), false);
    assert.equal(isHostMessage({ type: 'html', html: '<b>' }), false);
    assert.equal(isHostMessage({ type: 'render', view: renderView() }), false, 'a render without its sequence number');
  });

  it('carry a rendered script payload as a plain string, character for character', () => {
    const message = { type: 'render', seq: 1, view: renderView({ output: XSS_PAYLOAD }) };
    assert.equal(isHostMessage(message), true);
    // What postMessage does to it: a structured clone, i.e. the same characters.
    assert.equal(structuredClone(message).view.output, XSS_PAYLOAD);
  });
});
