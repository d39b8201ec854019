import { lazyBundle } from './lazyCore';

/** The webview panels (dist/panels.js, src/extension/panelsBundle.ts), loaded when the first one opens. */
export const loadPanels = lazyBundle<typeof import('./panelsBundle')>('panels.js');
