// snaps-jest's environment, with BigInts readable in the worker's messages and, under
// `npm run test:profile`, each file's time and each snap install recorded (shared.js).
const { printBigIntsInWorkerMessages, profiledEnvironment } = require('./shared');

printBigIntsInWorkerMessages();
module.exports = profiledEnvironment(require('@metamask/snaps-jest').TestEnvironment);
