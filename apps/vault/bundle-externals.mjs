// The packages the embedded vault's bundle (bundle.mjs) leaves as imports, so
// that they are loaded from node_modules at run time: native addons load their
// binaries from beside their own files; PGlite (only to import an old folder),
// the password checker (only when a password is set) and WebAuthn (only when a
// passkey is used) stay out of the start's chunks. WebAuthn's certificate
// parser also require()s reflect-metadata: inside the bundle that would make it
// a lazy module, initialised after Nest's decorators need it. The embedded
// image (scripts/containers/stage-vault.mjs) ships these, and only these, as
// node_modules, with PostgreSQL's binaries.
export const BUNDLE_EXTERNALS = ['@node-rs/argon2', 'sharp', '@electric-sql/pglite', '@zxcvbn-ts/*', '@simplewebauthn/server'];
