// Shared by every package's jest project. A `testTimeout` inside a project config is ignored when
// the root config runs the projects, so the timeout is set here instead. The suites start real
// servers, build bundles and drive Chromium on a 2-core machine, hence the generous limit.
jest.setTimeout(180_000);
