/**
 * A JSON-RPC server's request body (Node's http), read whole up to a size: over it, the request
 * is destroyed at once and the body is undefined (each server answers that its own way).
 */
import type { IncomingMessage } from 'node:http';

export function readRequestBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        resolve(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
