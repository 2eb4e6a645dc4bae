import ArgumentParser
import HotTaskCore

/// What `--export` writes: Core's `ExportFormat`, spelled as its cases.
extension ExportFormat: ExpressibleByArgument {}

/// What `--import` reads: Core's `ImportFormat`, spelled as its cases.
extension ImportFormat: ExpressibleByArgument {}
