import type busboy from 'busboy';
import { UnsupportedMediaTypeError } from '../../../providers/src/index.js';
import { lazyModule } from '../../../providers/src/internal.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BadRequestError, PayloadTooLargeError } from '../http/http.errors.js';
import { platformOfRequest } from '../http/platform/platform-of.js';

/** busboy, required on the first multipart request. */
const loadBusboy = lazyModule<typeof busboy>('busboy');

/** One uploaded file, held in memory. */
export interface UploadedFile {
  /** The form field it came in (e.g. `file`). */
  field: string;
  /** The name the client gave it: display only, never a path on this server. */
  filename: string;
  /** The type the client claimed; check the content itself before trusting it. */
  mimeType: string;
  /** The file's bytes, at most `maxFileBytes` of them. */
  content: Buffer;
}

/** Limits of {@link readUploads}. */
export interface UploadLimits {
  /** Largest file in bytes; over it the answer is 413 naming the limit. @default config `app.upload_limit` */
  maxFileBytes: number;
  /** Most files in one request. @default 10 */
  maxFiles?: number;
  /** Form fields files are accepted from. @default ['file', 'files'] */
  fields?: readonly string[];
  /**
   * Most bytes of all the request's files together; over it the answer is 413 naming the limit,
   * as soon as the byte over it arrives. @default maxFileBytes × maxFiles
   */
  maxTotalBytes?: number;
  /**
   * Checks each file's first bytes (its first KiB, or the whole file when smaller) as soon as
   * they arrive, before the rest is read: a type check by content. Throwing refuses the upload
   * at once with that error (e.g. a 415), and the rest of the body is dropped unread.
   *
   * @example
   * checkHead: (head, file) => detectDocumentHead(head, file.filename)
   */
  checkHead?: (head: Buffer, file: UploadedFileInfo) => void;
}

/** What is known of an uploaded file before its content: where it came from and its names. */
export type UploadedFileInfo = Pick<UploadedFile, 'field' | 'filename' | 'mimeType'>;

/** How many bytes of a file `checkHead` is given. */
const HEAD_BYTES = 1024;

/** The request `readUploads` takes: Express's (a Node request with `res`), or Fastify's. */
export type UploadRequest = (IncomingMessage & { res?: ServerResponse }) | { raw: IncomingMessage };

/** A Node request, linked to its response by Express (Fastify does not link them). */
type LinkedRequest = IncomingMessage & { res?: ServerResponse };

/**
 * The response of a request: Express's link, else the one Node's server attached to the
 * connection (`_httpMessage`, the answer in progress), so a refused upload on Fastify closes its
 * connection after the 413 as well.
 */
function responseOf(req: LinkedRequest): ServerResponse | undefined {
  if (req.res) return req.res;
  const current = (req.socket as { _httpMessage?: unknown } | null | undefined)?._httpMessage;
  return current && typeof (current as ServerResponse).once === 'function'
    ? (current as ServerResponse)
    : undefined;
}

/**
 * Reads a `multipart/form-data` upload, enforcing the limits WHILE the body streams in: the
 * first byte over `maxFileBytes` (or over `maxTotalBytes` for all files together) ends the
 * request with a 413 stating the limit, and `checkHead` sees each file's first KiB as soon as it
 * arrives; the rest of a refused body is dropped, not stored, and the connection is closed half
 * a second after the answer. A declared `Content-Length` already over the limit is refused
 * before anything is read. Takes the request
 * `@Req()` gives on either platform (on Fastify, toolkit leaves multipart bodies unread for it).
 *
 * @example
 * @Route('/upload', { methods: ['POST'] })
 * async upload(@Req() req: Request) {
 *   const files = await readUploads(req, { maxFileBytes: 20 * 1024 * 1024 });
 * }
 */
export function readUploads(request: UploadRequest, limits: UploadLimits): Promise<UploadedFile[]> {
  const req = platformOfRequest(request).rawRequest(request) as LinkedRequest;
  const res = responseOf(req);
  const maxFiles = limits.maxFiles ?? 10;
  const fields = limits.fields ?? ['file', 'files'];
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    return Promise.reject(new UnsupportedMediaTypeError('Send the files as multipart/form-data'));
  }
  const maxTotal = limits.maxTotalBytes ?? limits.maxFileBytes * maxFiles;
  // Without a total of its own, or with one no larger than a file's, the message is a file's.
  const totalTooLarge = (): PayloadTooLargeError =>
    limits.maxTotalBytes === undefined || maxTotal <= limits.maxFileBytes
      ? new PayloadTooLargeError(Math.min(maxTotal, limits.maxFileBytes), 'Upload')
      : new PayloadTooLargeError(maxTotal, 'The upload (all files together)');
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxTotal + 64 * 1024) {
    return Promise.reject(refuse(req, res, totalTooLarge()));
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = loadBusboy()({
        headers: req.headers,
        limits: { fileSize: limits.maxFileBytes, files: maxFiles, fields: 20 },
      });
    } catch (error) {
      reject(new BadRequestError(`Malformed multipart body: ${(error as Error).message}`));
      return;
    }
    const files: UploadedFile[] = [];
    let failed = false;
    const fail = (error: Error): void => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      reject(error);
    };
    let totalBytes = 0;
    parser.on('file', (field, stream, info) => {
      if (!fields.includes(field)) {
        stream.resume();
        return;
      }
      const file = { field, filename: info.filename ?? 'upload', mimeType: info.mimeType };
      const parts: Buffer[] = [];
      let received = 0;
      let checked = limits.checkHead === undefined;
      const check = (): void => {
        checked = true;
        try {
          limits.checkHead?.(Buffer.concat(parts).subarray(0, HEAD_BYTES), file);
        } catch (error) {
          fail(refuse(req, res, error instanceof Error ? error : new Error(String(error))));
        }
      };
      stream.on('data', (part: Buffer) => {
        if (failed) return;
        parts.push(part);
        received += part.length;
        totalBytes += part.length;
        if (totalBytes > maxTotal) {
          fail(refuse(req, res, totalTooLarge()));
        } else if (!checked && received >= HEAD_BYTES) check();
      });
      stream.on('limit', () =>
        fail(refuse(req, res, new PayloadTooLargeError(limits.maxFileBytes, 'Upload'))),
      );
      stream.on('close', () => {
        if (!failed && !checked && received > 0) check();
        if (!failed) files.push({ ...file, content: Buffer.concat(parts) });
      });
    });
    parser.on('filesLimit', () =>
      fail(new BadRequestError(`At most ${maxFiles} files per upload`)),
    );
    parser.on('error', (error: Error) =>
      fail(new BadRequestError(`Malformed multipart body: ${error.message}`)),
    );
    parser.on('close', () => {
      if (failed) return;
      if (files.length === 0)
        reject(new BadRequestError(`No file in the upload (send it in the "${fields[0]}" field)`));
      else resolve(files);
    });
    req.on('aborted', () => fail(new BadRequestError('Upload aborted by the client')));
    req.pipe(parser);
  });
}

/** How long the rest of a refused upload may still arrive (and be dropped) after the 413. */
const LINGER_MS = 500;

/**
 * Refuses an upload (413 over a limit, a `checkHead` error). Nothing more of the body is kept;
 * the connection is closed shortly after the answer has gone out. Closing it at once would make
 * the kernel reset the connection over the unread bytes, and the client would never see the
 * answer (nginx's "lingering close" solves the same problem the same way).
 */
function refuse<E extends Error>(
  req: IncomingMessage,
  res: ServerResponse | undefined,
  error: E,
): E {
  res?.once('finish', () => {
    const socket = req.socket as { destroy?: () => void } | undefined;
    if (typeof socket?.destroy === 'function')
      setTimeout(() => socket.destroy?.(), LINGER_MS).unref();
  });
  return error;
}
