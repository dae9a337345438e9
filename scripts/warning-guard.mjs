// Loaded into every test process by scripts/run-tests.mjs: a process warning (deprecation,
// experimental feature, observer failure, …) that no test captured fails the test file, so a clean
// `npm test` prints none. Tests that expect one capture it (test/support/capture-warnings.ts).
process.on('warning', (warning) => {
  process.exitCode = 1;
  process.stderr.write(
    `unexpected process warning in a test (${warning.name}: ${warning.message}); a test that expects it captures it with test/support/capture-warnings.ts\n`,
  );
});
