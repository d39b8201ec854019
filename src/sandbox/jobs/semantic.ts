/**
 * The sandbox's stand-in for the service's embedding search (`semantic_string`): TF-IDF vectors
 * over the words of each job's inputs and metadata, compared by cosine similarity. Jobs scoring at
 * least {@link SIMILARITY_THRESHOLD} are kept, most similar first. No model, no network: good
 * enough to find "jobs like this one" in demo data, and deterministic.
 */
export const SIMILARITY_THRESHOLD = 0.1;

const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have i in is it its me my of on or our so that the this to was we were with you your'.split(' '),
);

/** Lower-cased words of two or more letters or digits, without the commonest English words. */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter((w) => !STOP_WORDS.has(w));
}

function termCounts(words: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

/** A candidate document: its key and its text. */
export interface SemanticDoc<K> {
  key: K;
  text: string;
}

/** Scores each document against the query; answers those at or above the threshold, best first. */
export function rankBySimilarity<K>(query: string, docs: readonly SemanticDoc<K>[], threshold = SIMILARITY_THRESHOLD): { key: K; score: number }[] {
  const queryCounts = termCounts(tokenize(query));
  if (queryCounts.size === 0 || docs.length === 0) return [];
  const docCounts = docs.map((d) => termCounts(tokenize(d.text)));
  const documentFrequency = new Map<string, number>();
  for (const counts of docCounts) for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const n = docs.length;
  const idf = (term: string) => Math.log((n + 1) / ((documentFrequency.get(term) ?? 0) + 1)) + 1;
  // Sub-linear term frequency: a word said ten times is not ten times as telling.
  const weight = (count: number, term: string) => (1 + Math.log(count)) * idf(term);
  const queryVector = new Map([...queryCounts].map(([t, c]) => [t, weight(c, t)] as const));
  const queryNorm = Math.hypot(...queryVector.values());
  const ranked: { key: K; score: number }[] = [];
  docCounts.forEach((counts, i) => {
    let dot = 0;
    let normSquared = 0;
    for (const [term, count] of counts) {
      const w = weight(count, term);
      normSquared += w * w;
      const q = queryVector.get(term);
      if (q !== undefined) dot += w * q;
    }
    if (dot === 0) return;
    const score = dot / (Math.sqrt(normSquared) * queryNorm);
    if (score >= threshold) ranked.push({ key: docs[i]!.key, score });
  });
  return ranked.sort((a, b) => b.score - a.score);
}
