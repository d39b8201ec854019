// What `npm run package` asks of vsce: the README's relative images left alone, or pointed at the https
// address given for them (VS Code's details page shows no other image).
import * as assert from 'node:assert/strict';
import { vsceArguments } from '../../../scripts/packageArguments.mjs';

describe('npm run package', () => {
  it('leaves the README’s links as they are when no base URL for images is given', () => {
    const args = vsceArguments([], {});
    assert.ok(args.includes('--no-rewrite-relative-links'));
    assert.ok(!args.includes('--baseImagesUrl'));
    assert.deepEqual(args.slice(0, 1), ['package']);
    assert.equal(args[args.indexOf('--out') + 1], 'agent-workbench.vsix');
  });

  it('points the README’s images at AGENT_WORKBENCH_IMAGES_URL', () => {
    const args = vsceArguments([], { AGENT_WORKBENCH_IMAGES_URL: 'https://images.example/agent-workbench/' });
    assert.equal(args[args.indexOf('--baseImagesUrl') + 1], 'https://images.example/agent-workbench/');
    assert.ok(!args.includes('--no-rewrite-relative-links'), 'vsce must rewrite the links to use the base URL');
  });

  it('takes --baseImagesUrl from its own command line before the environment, and passes it through once', () => {
    const args = vsceArguments(['--baseImagesUrl', 'https://a.example/'], { AGENT_WORKBENCH_IMAGES_URL: 'https://b.example/' });
    assert.deepEqual(args.filter((a) => a.includes('example')), ['https://a.example/']);
    assert.ok(!args.includes('--no-rewrite-relative-links'));
  });

  it('rewrites links when only a base URL for content is given, and passes other vsce options through', () => {
    const args = vsceArguments(['--baseContentUrl=https://c.example/', '--pre-release'], {});
    assert.ok(!args.includes('--no-rewrite-relative-links'));
    assert.ok(args.includes('--baseContentUrl=https://c.example/') && args.includes('--pre-release'));
  });

  it('refuses a base URL for images that is not https, naming where it came from', () => {
    assert.throws(() => vsceArguments([], { AGENT_WORKBENCH_IMAGES_URL: 'http://images.example/' }), /AGENT_WORKBENCH_IMAGES_URL must be an https address/);
    assert.throws(() => vsceArguments(['--baseImagesUrl', 'media/'], {}), /--baseImagesUrl must be an https address/);
  });

  it('treats an empty AGENT_WORKBENCH_IMAGES_URL as not given', () => {
    assert.ok(vsceArguments([], { AGENT_WORKBENCH_IMAGES_URL: ' ' }).includes('--no-rewrite-relative-links'));
  });
});
