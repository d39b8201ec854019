/** vsce's arguments for `npm run package`: `argv` passed through, a base URL for images from it or AGENT_WORKBENCH_IMAGES_URL. */
export function vsceArguments(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string[];
