// jest's node environment, with BigInts readable in the worker's messages and, under
// `npm run test:profile`, each file's time recorded (shared.js).
const { printBigIntsInWorkerMessages, profiledEnvironment } = require('./shared');

printBigIntsInWorkerMessages();
module.exports = profiledEnvironment(require('jest-environment-node').TestEnvironment);
