'use strict';
// Preloaded into Alto with `node -r`: Alto has no host flag and listens on every interface, so
// every server it opens is bound to 127.0.0.1 instead.
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  if (typeof args[0] === 'object' && args[0] !== null) {
    args[0] = { ...args[0], host: '127.0.0.1' };
  } else if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const [port, ...rest] = args;
    const tail = typeof rest[0] === 'string' ? rest.slice(1) : rest;
    return listen.call(this, port, '127.0.0.1', ...tail);
  }
  return listen.apply(this, args);
};
