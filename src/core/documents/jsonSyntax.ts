/** JSON syntax errors said in words, with where they are as people count (line and column from 1). */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { positionOf, type TextPosition } from '../textPosition';

/** What was expected or found, by the parser's error code. */
const WORDS: Record<string, string> = {
  InvalidSymbol: 'a character that cannot start a JSON value was found',
  InvalidNumberFormat: 'a number is written in a form JSON does not allow',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a colon (:) was expected after the property name',
  CommaExpected: 'a comma was expected between two entries',
  CloseBraceExpected: 'a closing brace (}) was expected',
  CloseBracketExpected: 'a closing bracket (]) was expected',
  EndOfFileExpected: 'the text should end here (something follows the value)',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a string is not closed with a double quote',
  UnexpectedEndOfNumber: 'a number ends too early',
  InvalidUnicode: 'a \\u escape needs four hexadecimal digits',
  InvalidEscapeCharacter: 'a backslash starts an escape JSON does not know',
  InvalidCharacter: 'a control character (such as a tab or line break) is inside a string',
};

/** One syntax error: where, and what in words. */
export interface JsonSyntaxError {
  offset: number;
  length: number;
  start: TextPosition;
  /** "a property name in double quotes was expected" */
  words: string;
}

/** What a parse error means in words (lower case, no full stop). */
export function syntaxWords(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  return WORDS[code] ?? code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The syntax errors of a strict JSON text (no comments, no trailing commas), first first. */
export function jsonSyntaxErrors(text: string): JsonSyntaxError[] {
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  return errors.map((e) => ({ offset: e.offset, length: e.length, start: positionOf(text, e.offset), words: unquotedName(text, e) ?? syntaxWords(e) }));
}

/** A bare word where a property name goes (`{source: 1}`): the parser only sees an unknown symbol. */
function unquotedName(text: string, error: ParseError): string | undefined {
  if (printParseErrorCode(error.error) !== 'InvalidSymbol' || !/^[A-Za-z_$]/.test(text.slice(error.offset))) return undefined;
  const before = text.slice(0, error.offset).trimEnd().at(-1);
  return before === '{' ? WORDS.PropertyNameExpected : undefined;
}

/** "line 1, column 2: a property name in double quotes was expected", or undefined for valid JSON. */
export function jsonSyntaxSentence(text: string): string | undefined {
  const first = jsonSyntaxErrors(text)[0];
  return first && `line ${first.start.line}, column ${first.start.column}: ${first.words}`;
}
