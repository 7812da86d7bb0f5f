import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { LOOPBACK } from '../constants';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript',
  '.mjs': 'application/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

export interface StaticServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

function fileFor(root: string, urlPath: string): string | null {
  let clean: string;
  try {
    clean = path.normalize(decodeURIComponent(urlPath.split('?')[0])).replace(/^(\.\.[/\\])+/, '');
  } catch {
    return null;
  }
  let file = path.join(root, clean);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    if (statSync(file).isDirectory()) file = path.join(file, 'index.html');
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/**
 * Serves a folder read-only on 127.0.0.1 (a free port unless `port`), the way a static host
 * would: a built site, or a snap folder for snaps-simulation to install (snap id
 * `local:${url}`). Nothing outside the folder is served.
 */
export function serveDirectory(
  root: string,
  options: { port?: number } = {},
): Promise<StaticServer> {
  const base = path.resolve(root);
  const server = http.createServer((request, response) => {
    const file = fileFor(base, request.url ?? '/');
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'access-control-allow-origin': '*',
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://${LOOPBACK}:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
