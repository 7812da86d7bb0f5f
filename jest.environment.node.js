// jest's node environment, with BigInts readable in the worker's messages (jest.shared.js).
require('./jest.shared').printBigIntsInWorkerMessages();
module.exports = require('jest-environment-node').TestEnvironment;
