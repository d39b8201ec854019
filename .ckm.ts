import { parsedTables } from './src/core/sql/sqlParser';
const t = (label: string, f: () => unknown) => { const s = performance.now(); f(); console.log(label, (performance.now() - s).toFixed(1), 'ms'); };
const joins = (n: number) => 'SELECT * FROM a ' + Array.from({length: n}, (_, i) => `JOIN t${i} ON a.x = t${i}.x`).join(' ');
parsedTables(joins(10));
for (const n of [10, 25, 50, 100, 200]) { const s = joins(n); t(`parser ${n} joins (${s.length} ch)`, () => parsedTables(s)); }
const cols = (n: number) => 'SELECT ' + Array.from({length: n}, (_, i) => `c${i}`).join(', ') + ' FROM a WHERE x = 1';
for (const n of [100, 500, 2000]) { const s = cols(n); t(`parser ${n} cols (${s.length} ch)`, () => parsedTables(s)); }
