// The architecture's import rules, written once (ARCHITECTURE.md explains each part).
// `npm run checks` runs them over the product's code: schemas/, shared/, server/ and src/.

/** Parts of server/ that `part` must not import. */
const serverPart = (part, forbidden, comment) => ({
  name: `${part}-boundary`,
  comment,
  severity: 'error',
  from: { path: `^server/${part}/` },
  to: { path: `^server/(${forbidden.join('|')})/` },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Modules form a tree of imports: a cycle makes load order and ownership unclear.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'contract-stands-alone',
      comment: 'schemas/ is the contract: it imports nothing of Involut but itself.',
      severity: 'error',
      from: { path: '^schemas/' },
      to: { path: '^(shared|server|src)/' },
    },
    {
      name: 'shared-is-pure',
      comment: 'shared/ is what both sides compute: it imports only the contract and itself.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(server|src)/' },
    },
    {
      name: 'server-not-viewer',
      comment: 'The server never imports the viewer; code both need lives in shared/.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/' },
    },
    {
      name: 'viewer-not-server',
      comment: 'The viewer never imports the server; it talks to it over HTTP (src/api).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'commands-are-the-edge',
      comment: 'Only the CLI runs commands and prints to the terminal.',
      severity: 'error',
      from: { path: '^server/', pathNot: '^server/cli(\\.ts$|/)' },
      to: { path: '^server/cli/(commands/|output\\.ts$|skill\\.ts$|claude-hooks\\.ts$)' },
    },
    serverPart(
      'git',
      ['round', 'review', 'serve', 'check', 'demo'],
      'git/ runs git and knows nothing of rounds or .review/.',
    ),
    serverPart(
      'review',
      ['round', 'serve', 'check', 'demo'],
      'review/ reads and writes the files in .review/ and nothing above them.',
    ),
    serverPart('round', ['serve', 'check', 'demo'], 'round/ captures, writes and prunes rounds; it never serves.'),
    serverPart('check', ['serve', 'demo'], 'check/ reads a review; it never serves.'),
    serverPart(
      'serve',
      ['check', 'demo'],
      'serve/ answers the viewer; checking and the demo are commands of their own.',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
