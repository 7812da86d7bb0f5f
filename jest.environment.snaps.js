// snaps-jest's environment, with BigInts readable in the worker's messages (jest.shared.js).
require('./jest.shared').printBigIntsInWorkerMessages();
module.exports = require('@metamask/snaps-jest').TestEnvironment;
