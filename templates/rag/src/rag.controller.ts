import { Controller, Inject, Req } from '@nestjs/common';
import {
  Arg,
  LLM,
  MemoryService,
  NotFoundError,
  readUploads,
  recordTurn,
  RequestSignal,
  Route,
  Session,
  Stream,
  TOOLKIT_CONFIG,
  ValidationError,
  type ToolkitConfig,
  type UploadRequest,
} from 'toolkit';
import {
  buildAskPrompt,
  detectDocumentType,
  DocumentIndex,
  NOT_COVERED_ANSWER,
  type AskSource,
  type SearchResult,
} from 'toolkit/rag';

/**
 * Upload, search and question answering over the document index `RagModule` opens (embedder,
 * store and relevance floor from toolkit.yaml's `rag:` section).
 */
@Controller()
export class RagController {
  constructor(
    private readonly index: DocumentIndex,
    private readonly llm: LLM,
    private readonly memory: MemoryService,
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
  ) {}

  /**
   * Multipart upload of one or more files (field `file` or `files`). The same content uploaded
   * twice is stored once. Files are checked before any is stored: one bad file stores nothing.
   */
  @Route('/upload', { methods: ['POST'] })
  async upload(@Req() req: UploadRequest) {
    const files = await readUploads(req, {
      maxFileBytes: this.config.app.upload_limit,
      maxFiles: 10,
    });
    for (const file of files) detectDocumentType(file.content, file.filename);
    const documents = [];
    for (const file of files) {
      const { document, created } = await this.index.ingest(file.content, file.filename);
      documents.push({
        document_id: document.id,
        filename: document.filename,
        chunks: document.chunks,
        created,
      });
    }
    const anyCreated = documents.some((d) => d.created);
    return [{ ...documents[0], documents }, anyCreated ? 201 : 200];
  }

  /**
   * `{ question, top_k? }` → an answer that cites the retrieved chunks, and those sources. The
   * questions and answers of the caller's session (`@Session()`) are remembered, so a follow-up
   * ("and for black tea?") is understood; they are stored once the answer exists, both together.
   * When no chunk passes the relevance floor, the model is not asked: the answer is "The
   * documents do not cover this question." with no sources.
   */
  @Route('/ask', { methods: ['POST'] })
  async ask(
    @Session() session: string,
    @Arg('question', { maxLength: 4000 }) question: string,
    @Arg('top_k', { type: 'integer', default: 4 }) topK: number,
  ) {
    const memory = this.memory.for(session);
    const { history, system, prompt, sources } = await this.prepare(session, question, topK);
    const answer =
      sources.length === 0 ? NOT_COVERED_ANSWER : await this.llm.chat(prompt, { history, system });
    await memory.addTurn(question, answer);
    return { answer, sources: sources.map(toSource) };
  }

  /**
   * The same answer as Server-Sent Events: first a `sources` event (the JSON list `/ask` gives),
   * then the answer chunk by chunk. Stopping the stream keeps the partial answer, marked
   * interrupted; a model failure keeps nothing.
   */
  @Route('/ask/stream', { methods: ['POST'] })
  @Stream()
  async *askStream(
    @Session() session: string,
    @Arg('question', { maxLength: 4000 }) question: string,
    @Arg('top_k', { type: 'integer', default: 4 }) topK: number,
    @RequestSignal() signal: AbortSignal,
  ) {
    const { history, system, prompt, sources } = await this.prepare(session, question, topK);
    const stream =
      sources.length === 0
        ? fixedAnswer(NOT_COVERED_ANSWER)
        : await this.llm.chat(prompt, { history, system, stream: true, signal });
    // Created first: a question memory would refuse is a 422 before any event.
    const answer = recordTurn(this.memory.for(session), question, stream, signal);
    yield { type: 'sources', data: sources.map(toSource) };
    yield* answer;
  }

  /** Forgets this session's questions and answers. */
  @Route('/clear', { methods: ['POST'] })
  async clear(@Session() session: string) {
    await this.memory.for(session).clear();
    return { status: 'cleared' };
  }

  /** The session's history, and the prompt built from the chunks retrieved for the question. */
  private async prepare(session: string, question: string, topK: number) {
    if (question.trim() === '') {
      throw new ValidationError([{ param: 'question', problem: 'must be a non-empty string' }]);
    }
    const history = await this.memory.for(session).toDictList({ maxTokens: 3000 });
    const results = await this.index.search(question, topK);
    return { history, ...buildAskPrompt(question, results) };
  }

  /** `{ query, top_k? }` → the best matching chunks. */
  @Route('/search', { methods: ['POST'] })
  async search(
    @Arg('query', { maxLength: 4000 }) query: string,
    @Arg('top_k', { type: 'integer', default: 5 }) topK: number,
  ) {
    const results = await this.index.search(query, topK);
    return { results: results.map(toResult), mode: this.index.mode };
  }

  @Route('/documents', { methods: ['GET'] })
  async documents() {
    const documents = await this.index.listDocuments();
    return {
      documents: documents.map((d) => ({
        document_id: d.id,
        filename: d.filename,
        type: d.type,
        bytes: d.bytes,
        chunks: d.chunks,
        created_at: d.createdAt,
      })),
    };
  }

  @Route('/documents/:id', { methods: ['DELETE'] })
  async remove(@Arg('id') id: string) {
    if (!(await this.index.deleteDocument(id))) throw new NotFoundError(`No document ${id}`);
    return { status: 'deleted', document_id: id };
  }
}

/** A fixed answer as a one-chunk stream, recorded like a model's by `recordTurn`. */
// eslint-disable-next-line @typescript-eslint/require-await -- async only to be an AsyncIterable
async function* fixedAnswer(text: string): AsyncGenerator<string> {
  yield text;
}

function toSource(s: AskSource) {
  return {
    document: s.document.filename,
    document_id: s.document.id,
    chunk: s.chunk.index,
    ...(s.chunk.page !== undefined && { page: s.chunk.page }),
    score: s.score,
  };
}

function toResult(r: SearchResult) {
  return {
    text: r.text,
    score: r.score,
    ...(r.coverage !== undefined && { coverage: r.coverage }),
    ...(r.similarity !== undefined && { similarity: r.similarity }),
    document: r.document.filename,
    document_id: r.document.id,
    chunk: r.chunk.index,
    ...(r.chunk.page !== undefined && { page: r.chunk.page }),
  };
}
