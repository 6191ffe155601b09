import { Injectable } from '@nestjs/common';
import { MemoryService, Tool, type ToolContext } from 'toolkit';
import { conversationId, USER_ID } from '../conversation.js';

/** Longest note the model may save. */
const MAX_NOTE_LENGTH = 2000;
/** Most notes `search_notes` returns. */
const MAX_FOUND = 5;

/** Words of two letters or more, lower-cased: what a note and a query are compared by. */
function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []);
}

/**
 * Notes the model keeps for one conversation: `save_note` remembers a fact, `search_notes` finds
 * the saved notes sharing the most words with a query. They live in the memory backend
 * (`memory:` in toolkit.yaml) beside the conversation, under `<conversation>/notes`, so they
 * follow its backend and retention, and no conversation ever sees another's notes. An MCP
 * client (`/mcp`) has no conversation: its calls use the default conversation of its session
 * (`context.session`, the caller as `@Session()` gives it), so each caller keeps its own notes.
 */
@Injectable()
export class NotesTools {
  constructor(private readonly memory: MemoryService) {}

  @Tool({
    name: 'save_note',
    description:
      "Saves a short note (a fact, a preference, a to-do) to this conversation's notes, to find it later with search_notes.",
    parameters: {
      type: 'object',
      properties: { text: { type: 'string', minLength: 1, maxLength: MAX_NOTE_LENGTH } },
      required: ['text'],
      additionalProperties: false,
    },
  })
  async saveNote({ text }: { text: string }, { context }: ToolContext) {
    const notes = this.notesOf(context);
    await notes.add('user', text.trim());
    return { saved: text.trim(), notes: (await notes.toDictList()).length };
  }

  @Tool({
    name: 'search_notes',
    description: "Searches this conversation's saved notes; returns the best matches (at most 5).",
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', minLength: 1, maxLength: 500 } },
      required: ['query'],
      additionalProperties: false,
    },
  })
  async searchNotes({ query }: { query: string }, { context }: ToolContext) {
    const wanted = wordsOf(query);
    const notes = await this.notesOf(context).toDictList();
    const found = notes
      .map(({ content }) => ({
        content,
        score: [...wordsOf(content)].filter((word) => wanted.has(word)).length,
      }))
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, MAX_FOUND)
      .map(({ content }) => content);
    return found.length > 0 ? { notes: found } : { notes: [], message: 'no saved note matches' };
  }

  private notesOf(context: ToolContext['context']) {
    return this.memory.for(`${notesConversation(context)}/notes`);
  }
}

/** The chat's conversation (`toolContext.conversation`), else the MCP caller's session's default one. */
function notesConversation({ conversation, session }: ToolContext['context']): string {
  if (typeof conversation === 'string' && conversation !== '') return conversation;
  if (typeof session === 'string' && session !== '') {
    return conversationId(session, USER_ID.default);
  }
  throw new Error(
    'notes need a conversation: call the model with toolContext.conversation (or serve them over MCP)',
  );
}
