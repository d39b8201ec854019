// The floor of a frame row: a minimal page of the same size as ours (the same rows and cells in view,
// the same row height, the same number of rows to scroll through), opened as a webview panel in the
// same window, built the cheapest way we know: a pool of absolutely positioned rows of fixed height,
// `contain: strict`, cells written with `textContent` only, a row written only when it shows another
// case. The orchestrator scrolls (or streams into) it with the same script as ours; its frames are
// what any page of that size costs in this webview host on this machine, in this run.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { FloorShape } from '../protocol';

let panel: vscode.WebviewPanel | undefined;

/** The page's script: `SHAPE` is replaced by the shape's JSON. Plain ES2020, no bundling. */
const SCRIPT = `
const shape = SHAPE;
const viewport = document.getElementById('viewport');
const canvas = document.getElementById('canvas');
canvas.style.height = Math.min(15e6, shape.totalRows * shape.rowHeight) + 'px';
canvas.style.width = shape.cells * shape.cellWidth + 'px';
const pool = [];
for (let k = 0; k < shape.rows + 1; k++) {
  const row = document.createElement('div');
  row.className = 'r';
  const cells = [];
  for (let c = 0; c < shape.cells; c++) {
    const cell = document.createElement('div');
    cell.className = 'c';
    cell.style.left = c * shape.cellWidth + 'px';
    row.appendChild(cell);
    cells.push(cell);
  }
  canvas.appendChild(row);
  pool.push({ row, cells, index: -1 });
}
function write(slot, index, stamp) {
  slot.index = index;
  slot.row.style.transform = 'translateY(' + index * shape.rowHeight + 'px)';
  for (let c = 0; c < slot.cells.length; c++) slot.cells[c].textContent = 'case ' + index + ' · ' + ((index * 2654435761 + c * 40503 + stamp) % 1000003);
}
function paint(force) {
  const first = Math.floor(viewport.scrollTop / shape.rowHeight);
  for (let i = first; i < first + pool.length && i < shape.totalRows; i++) {
    const slot = pool[i % pool.length];
    if (slot.index !== i || (force && force.has(i))) write(slot, i, force ? force.stamp : 0);
  }
}
let stamp = 0;
viewport.addEventListener('scroll', () => paint(null), { passive: true });
window.addEventListener('message', (event) => {
  const rows = event.data && event.data.type === 'rows' ? event.data.rows : null;
  if (!rows) return;
  const force = new Set(rows.map((r) => r.index));
  force.stamp = ++stamp;
  paint(force);
});
paint(null);
acquireVsCodeApi().postMessage({ type: 'ready' });
`;

const STYLE = `
html, body { margin: 0; height: 100%; overflow: hidden; font: 13px monospace; }
#viewport { position: absolute; inset: 0; overflow: auto; }
#canvas { position: relative; contain: strict; }
.r { position: absolute; top: 0; left: 0; width: 100%; height: var(--h); contain: strict; }
.c { position: absolute; top: 0; height: var(--h); width: var(--w); overflow: hidden; white-space: pre; contain: strict; line-height: var(--h); }
`;

/** Opens the floor page for `shape` (closing one left open); resolves when its script said ready. */
export async function openFloor(shape: FloorShape): Promise<null> {
  closeFloor();
  const nonce = randomUUID().replace(/-/g, '');
  const opened = vscode.window.createWebviewPanel('agentWorkbenchBench.floor', 'Floor', { viewColumn: vscode.ViewColumn.Active, preserveFocus: true }, { enableScripts: true });
  panel = opened;
  const ready = new Promise<void>((resolve) => opened.webview.onDidReceiveMessage(() => resolve()));
  const vars = `:root { --h: ${shape.rowHeight}px; --w: ${shape.cellWidth}px; }`;
  opened.webview.html =
    `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">` +
    `<style nonce="${nonce}">${vars}${STYLE}</style></head><body><div id="floor"></div><div id="viewport"><div id="canvas"></div></div>` +
    `<script nonce="${nonce}">${SCRIPT.replace('SHAPE', JSON.stringify(shape))}</script></body></html>`;
  await Promise.race([ready, new Promise((_resolve, reject) => setTimeout(() => reject(new Error('The floor page did not say ready within 60 s.')), 60_000))]);
  return null;
}

/** Closes the floor page. */
export function closeFloor(): null {
  panel?.dispose();
  panel = undefined;
  return null;
}
