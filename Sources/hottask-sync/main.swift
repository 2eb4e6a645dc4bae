import HotTaskSync

// The helper as a program of its own, for development builds: the package installs
// `hottask-sync` as a link to `hottask`, which runs the same `SyncHelper`.
SyncHelper.run(Array(CommandLine.arguments.dropFirst()))
