#!/usr/bin/env node
// The `lintel` command: runs the TypeScript sources through tsx, so there is no build step.
// `npm install` brings Node 24 (the npm `node` package) and npm puts it first on PATH for
// `npm start`, `npm test` and `npx lintel`; run directly on an older Node, say what to do.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `lintel needs Node 22.12 or newer (Node 24 LTS recommended); this is Node ${process.versions.node}.\n` +
      'After `npm install`, run it through npm, which uses the Node 24 installed in node_modules:\n' +
      '  npm start            (the server)\n' +
      '  npx lintel --help    (every command)\n',
  );
  process.exit(1);
}
const { register } = await import('tsx/esm/api');
register();
await import('../src/cli.ts');
