import { errorMessage } from '../provider/abort.js';
import type { CompiledSchema, SchemaCheck } from '../tools/schema-validator.js';

/** The JSON inside a reply: the text itself, or the content of a ```json fence around it. */
export function jsonText(reply: string): string {
  const fenced = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?```\s*$/i.exec(reply);
  return (fenced ? fenced[1] : reply).trim();
}

/** Parses and validates one reply; the problem names what is wrong (bad JSON or the paths). */
export async function checkReply(reply: string, schema: CompiledSchema): Promise<SchemaCheck> {
  let value: unknown;
  try {
    value = JSON.parse(jsonText(reply));
  } catch (error) {
    return { ok: false, problem: `the reply is not valid JSON (${errorMessage(error)})` };
  }
  return schema.check(value);
}

/** The system instruction asking for JSON that matches `schema`. */
export function jsonInstruction(schema: CompiledSchema): string {
  return (
    'Reply with only a JSON object (no prose, no code fence) that is valid against this JSON ' +
    `Schema:\n${JSON.stringify(schema.jsonSchema)}`
  );
}

/** The user turn sent after an invalid reply. */
export function retryInstruction(problem: string): string {
  return `That reply was invalid: ${problem}. Reply again with only the corrected JSON object.`;
}
