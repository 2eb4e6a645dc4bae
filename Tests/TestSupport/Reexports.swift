/// Tests get the seeded generator with TestSupport; the benchmarks use it too.
@_exported import Seeded
