// A small bar chart of outcomes per target, drawn as SVG with theme colours (classes only: the page's
// policy allows no inline style attributes). Labels are SVG text nodes: service text stays text.
import { outcomeColour } from '../../core/comparison/outcomeColour';

const SVG = 'http://www.w3.org/2000/svg';
const BAR_HEIGHT = 14;
const GAP = 4;
const LABEL_WIDTH = 96;
const WIDTH = 260;
/** Outcomes drawn before the rest are summed as "other". */
const MAX_BARS = 6;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>, className = ''): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (className) element.setAttribute('class', className);
  return element;
}

/** The chart of one target's outcomes, most frequent first (an outcome has one meaning-bearing colour everywhere), or a note when there are none yet. */
export function outcomeChart(outcomes: readonly [string, number][], label: string): Element {
  if (outcomes.length === 0) {
    const none = document.createElement('p');
    none.className = 'hint chart-empty';
    none.textContent = 'No outcomes yet';
    return none;
  }
  const shown = outcomes.slice(0, MAX_BARS);
  const rest = outcomes.slice(MAX_BARS).reduce((sum, [, n]) => sum + n, 0);
  const bars: [string, number][] = rest > 0 ? [...shown, ['other', rest]] : [...shown];
  const max = Math.max(...bars.map(([, n]) => n));
  const height = bars.length * (BAR_HEIGHT + GAP);
  const chart = svg('svg', { width: WIDTH, height, viewBox: `0 0 ${WIDTH} ${height}`, role: 'img', 'aria-label': label }, 'chart');
  const title = svg('title', {});
  title.textContent = `${label}: ${bars.map(([name, n]) => `${name} ${n}`).join(', ')}`;
  chart.append(title);
  bars.forEach(([name, n], i) => {
    const y = i * (BAR_HEIGHT + GAP);
    const text = svg('text', { x: 0, y: y + BAR_HEIGHT - 3 }, 'chart-label');
    text.textContent = name.length > 14 ? `${name.slice(0, 13)}…` : name;
    const barWidth = Math.max(2, ((WIDTH - LABEL_WIDTH - 40) * n) / max);
    const bar = svg('rect', { x: LABEL_WIDTH, y, width: barWidth, height: BAR_HEIGHT, rx: 2 }, `chart-bar outcome-${rest > 0 && i === shown.length ? 'grey' : outcomeColour(name)}`);
    const value = svg('text', { x: LABEL_WIDTH + barWidth + 4, y: y + BAR_HEIGHT - 3 }, 'chart-value');
    value.textContent = String(n);
    chart.append(text, bar, value);
  });
  return chart;
}
