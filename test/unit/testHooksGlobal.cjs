// Unit tests run the sources as they are (tsx), as the test build: what esbuild's define sets there.
globalThis.__TEST_HOOKS__ = true;
