/** Masks every known secret and anything shaped like a bearer credential in a text meant for people. */
export function redact(text: string, secrets: Iterable<string> = []): string {
  let out = text.replace(/(Bearer\s+)[^\s"',;]+/gi, '$1•••');
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('•••');
  }
  return out;
}
