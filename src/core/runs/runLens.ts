/**
 * The title of a run file's ▶ Run lens. A click on it is what picks the agent the jobs start on, so it
 * names that agent as the service names it (a run file's `agentName` is only a label for readers);
 * until the agent is read, it names none.
 */
export function runLensTitle(agentName: string | undefined, batchSize: number | undefined): string {
  const agent = agentName?.trim() ? ` ${agentName.trim()}` : '';
  return batchSize === undefined ? `▶ Run${agent}` : `▶ Run${agent}: batch of ${batchSize}`;
}
