/** Human forms of times, durations and sizes, for labels (pure; tested in plain Node). */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 min ago", "3 h ago", "2 d ago", then the date; future times read "in …". */
export function relativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const diff = now - t;
  const abs = Math.abs(diff);
  const ago = (text: string): string => (diff >= 0 ? `${text} ago` : `in ${text}`);
  if (abs < 45_000) return 'just now';
  if (abs < HOUR) return ago(`${Math.max(1, Math.round(abs / MINUTE))} min`);
  if (abs < DAY) return ago(`${Math.round(abs / HOUR)} h`);
  if (abs < 30 * DAY) return ago(`${Math.round(abs / DAY)} d`);
  return new Date(t).toISOString().slice(0, 10);
}

/** "850 ms", "12 s", "3 min 05 s", "2 h 10 min". */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${String(m % 60).padStart(2, '0')} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** Elapsed time between two ISO times, or from one until now. */
export function elapsedMs(fromIso: string | null | undefined, toIso?: string | null, now: number = Date.now()): number | undefined {
  const from = fromIso ? Date.parse(fromIso) : NaN;
  if (Number.isNaN(from)) return undefined;
  const to = toIso ? Date.parse(toIso) : now;
  return Number.isNaN(to) ? undefined : Math.max(0, to - from);
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** "512 B", "1.5 KB", "23 MB" (powers of 1024, as file managers show them). */
export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '';
  if (n < 0) return `${n} B`;
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${UNITS[unit]}`;
}

/** A local date and time for tooltips: "2026-11-21 14:03:12". */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const d = new Date(t);
  const p = (x: number): string => String(x).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Nanoseconds as a human duration ("1.2 s", "340 ms", "12 µs"). */
export function nanoseconds(ns: number | null | undefined): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return '';
  if (ns < 1_000) return `${ns} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toFixed(0)} µs`;
  if (ns < 1_000_000_000) return `${(ns / 1_000_000).toFixed(ns < 10_000_000 ? 1 : 0)} ms`;
  return `${(ns / 1_000_000_000).toFixed(ns < 10_000_000_000 ? 2 : 1)} s`;
}

/** A service text fit for a label: one line, at most `max` characters (a 5 MB name must not reach the UI whole). */
export function clip(text: string | null | undefined, max = 200): string {
  if (!text) return '';
  const head = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const line = head.replace(/\s+/g, ' ').trim();
  return line.length > max || head.length < text.length ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Like {@link clip}, but cut at the end of a word (a title reads "… with…", never "… with esca…"); a
 * single word longer than `max` is still cut inside.
 */
export function clipAtWord(text: string | null | undefined, max = 200): string {
  const line = clip(text, max * 2);
  if (line.length <= max) return line;
  const head = line.slice(0, max - 1);
  // The character after the cut is a space: the head already ends at a word.
  const space = line[max - 1] === ' ' ? head.length : head.lastIndexOf(' ');
  const cut = space >= max / 3 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.–—-]+$/, '')}…`;
}

/** A text as the end of a sentence: a full stop added unless it already ends with one (or with ? ! …), never "..". */
export function endSentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.?!…]["”’)]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
