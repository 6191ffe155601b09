import { randomBytes } from 'node:crypto';

/** A file for a multipart upload in a test. */
export interface TestFile {
  /** The name the client claims (any string: tests may send hostile ones). */
  filename: string;
  /** The file's bytes; a string is sent as UTF-8. */
  content: Buffer | string;
  /** The type the client claims for the file. @default 'application/octet-stream' */
  contentType?: string;
}

/**
 * Encodes files (and plain fields) as `multipart/form-data`, the way a browser form sends them.
 * A field may hold several files.
 */
export function multipartBody(
  files: Record<string, TestFile | readonly TestFile[]>,
  fields: Record<string, string> = {},
): { body: Buffer; contentType: string } {
  const boundary = `----toolkit-test-${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const [field, entry] of Object.entries(files)) {
    for (const file of Array.isArray(entry)
      ? (entry as readonly TestFile[])
      : [entry as TestFile]) {
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.filename.replace(/"/g, '%22')}"\r\n` +
        `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`;
      parts.push(Buffer.from(head), Buffer.from(file.content), Buffer.from('\r\n'));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
