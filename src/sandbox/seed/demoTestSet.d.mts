/** The demo test set's text (`support-call-qa.testset.jsonl`), given the loop's transcript for the first case. */
export function demoTestSetText(loopTranscript: string): string;
