// The arguments `npm run package` gives vsce. VS Code's details page of an extension shows only https
// images, and the .vsix ships none of the screenshots, so the README's images need a base URL once the
// project is published: AGENT_WORKBENCH_IMAGES_URL, or `npm run package -- --baseImagesUrl https://…`.

const BASE = ['package', '--no-dependencies', '--allow-missing-repository', '--out', 'agent-workbench.vsix'];

/** The value of `--name value` or `--name=value` in `argv`, or undefined. */
function optionValue(argv, name) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1);
  }
  return undefined;
}

/** Refuses a base URL that is not https: the details page would show none of its images. */
function checkHttps(name, url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== 'https:') throw new Error(`${name} must be an https address (VS Code's details page shows no other images), not "${url}".`);
}

/**
 * vsce's arguments for the command line's `argv` (passed through) and the environment. With no base URL,
 * relative links are left as they are (vsce would otherwise refuse them, the project having no repository
 * to guess one from).
 */
export function vsceArguments(argv, env) {
  const fromArgv = optionValue(argv, '--baseImagesUrl');
  const fromEnv = env.AGENT_WORKBENCH_IMAGES_URL?.trim() || undefined;
  const images = fromArgv ?? fromEnv;
  if (images !== undefined) checkHttps(fromArgv !== undefined ? '--baseImagesUrl' : 'AGENT_WORKBENCH_IMAGES_URL', images);
  const content = optionValue(argv, '--baseContentUrl');
  const added = fromArgv === undefined && fromEnv !== undefined ? ['--baseImagesUrl', fromEnv] : [];
  const rewrite = images !== undefined || content !== undefined ? [] : ['--no-rewrite-relative-links'];
  return [...BASE, ...rewrite, ...added, ...argv];
}
