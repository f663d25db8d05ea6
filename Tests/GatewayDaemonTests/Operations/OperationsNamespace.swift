/// Groups the operations suites so `swift test --filter Operations` selects them all.
enum Operations {}
