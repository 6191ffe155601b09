import { Controller, Inject, Req } from '@nestjs/common';
import {
  APP_INFO,
  Arg,
  LLM,
  MemoryService,
  NotFoundError,
  readUploads,
  recordTurn,
  RequestSignal,
  RateLimit,
  Route,
  Session,
  Stream,
  TOOLKIT_CONFIG,
  ToolkitError,
  ValidationError,
  type AppInfo,
  type ToolkitConfig,
  type UploadRequest,
} from 'toolkit';
import {
  buildAskPrompt,
  checkDocumentHead,
  detectDocumentType,
  DocumentIndex,
  NOT_COVERED_ANSWER,
  type AskSource,
  type SearchResult,
} from 'toolkit/rag';

/**
 * Upload, search and question answering over the document index `RagModule` opens (embedder,
 * store and relevance floor from toolkit.yaml's `rag:` section).
 *
 * Every route works for the caller (`@Session()`: the user an authentication guard sets, else
 * the session cookie): an upload belongs to it, and search, ask, list and delete see only its
 * own documents plus the shared ones (the files of `docs/documents/` indexed at start-up). The
 * index and its stores apply that scope themselves, so no other caller's chunk reaches a prompt.
 */
@Controller()
export class RagController {
  constructor(
    private readonly index: DocumentIndex,
    private readonly llm: LLM,
    private readonly memory: MemoryService,
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
    @Inject(APP_INFO) private readonly info: AppInfo,
  ) {}

  /**
   * What this service is: the retrieval it runs (always hybrid, BM25 keywords fused with vectors;
   * `embeddings` says which: `hashing-v1:…` offline, or an embedding model) and its routes.
   */
  @Route('/', { methods: ['GET'] })
  about() {
    return {
      name: this.info.name,
      version: this.info.version,
      retrieval: { mode: this.index.mode, embeddings: this.index.embedder.id },
      endpoints: [
        { method: 'POST', path: '/upload', body: 'multipart, field file' },
        { method: 'POST', path: '/ask', body: '{ question, top_k? }' },
        { method: 'POST', path: '/ask/stream', body: '{ question, top_k? }' },
        { method: 'POST', path: '/search', body: '{ query, top_k? }' },
        { method: 'POST', path: '/clear' },
        { method: 'GET', path: '/documents' },
        { method: 'DELETE', path: '/documents/:id' },
        { method: 'GET', path: '/health' },
      ],
    };
  }

  /**
   * Multipart upload of one or more files (field `file` or `files`), private to the caller.
   * The same content uploaded twice by one caller is stored once; by two callers, once each.
   * Files are checked before any is stored: one bad file stores nothing.
   */
  @Route('/upload', { methods: ['POST'] })
  async upload(@Session() session: string, @Req() req: UploadRequest) {
    // The limit holds for all files of a request together, so ten concurrent uploads hold at
    // most ten times it in memory; each file's type is checked on its first KiB, as it arrives.
    const files = await readUploads(req, {
      maxFileBytes: this.config.app.upload_limit,
      maxTotalBytes: this.config.app.upload_limit,
      maxFiles: 10,
      checkHead: (head, file) => checkDocumentHead(head, file.filename),
    });
    for (const file of files) detectDocumentType(file.content, file.filename);
    const documents = [];
    for (const file of files) {
      const { document, created } = await this.index.ingest(file.content, file.filename, {
        owner: session,
      });
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
  @RateLimit()
  async ask(
    @Session() session: string,
    @Arg('question', { maxLength: 4000 }) question: string,
    @Arg('top_k', { type: 'integer', default: 4 }) topK: number,
  ) {
    const memory = this.memory.for(session);
    const { history, system, prompt, sources } = await this.prepare(session, question, topK);
    const answer =
      sources.length === 0
        ? NOT_COVERED_ANSWER
        : await this.llm.chat(prompt, { history, system, userId: session });
    await memory.addTurn(question, answer);
    return { answer, sources: sources.map(toSource) };
  }

  /**
   * The same answer as Server-Sent Events: first a `sources` event (the JSON list `/ask` gives),
   * then the answer chunk by chunk. Stopping the stream keeps the partial answer, marked
   * interrupted; a model failure keeps nothing.
   */
  @Route('/ask/stream', { methods: ['POST'] })
  @RateLimit()
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
        : await this.llm.chat(prompt, { history, system, stream: true, signal, userId: session });
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
    const results = await this.index.search(question, topK, { owner: session });
    return { history, ...buildAskPrompt(question, results) };
  }

  /** `{ query, top_k? }` → the best matching chunks of the caller's and the shared documents. */
  @Route('/search', { methods: ['POST'] })
  async search(
    @Session() session: string,
    @Arg('query', { maxLength: 4000 }) query: string,
    @Arg('top_k', { type: 'integer', default: 5 }) topK: number,
  ) {
    const results = await this.index.search(query, topK, { owner: session });
    return { results: results.map(toResult), mode: this.index.mode };
  }

  /** The caller's documents and the shared ones (`shared: true`), oldest first. */
  @Route('/documents', { methods: ['GET'] })
  async documents(@Session() session: string) {
    const documents = await this.index.listDocuments({ owner: session });
    return {
      documents: documents.map((d) => ({
        document_id: d.id,
        filename: d.filename,
        type: d.type,
        bytes: d.bytes,
        chunks: d.chunks,
        created_at: d.createdAt,
        shared: d.owner === undefined,
      })),
    };
  }

  /**
   * Deletes one of the caller's documents: 404 for an id it does not see (another caller's
   * looks unknown), 403 for a shared one (remove its file from `docs/documents/` instead).
   */
  @Route('/documents/:id', { methods: ['DELETE'] })
  async remove(@Session() session: string, @Arg('id') id: string) {
    const scope = { owner: session };
    if (await this.index.deleteDocument(id, scope)) return { status: 'deleted', document_id: id };
    if (await this.index.getDocument(id, scope)) {
      const why = `Document ${id} is shared: only the app's documents folder changes it`;
      throw new ToolkitError(why, { statusCode: 403 });
    }
    throw new NotFoundError(`No document ${id}`);
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
