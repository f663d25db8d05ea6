/// Waits for `condition` with a generous deadline: tests wait on conditions, never on fixed
/// sleeps, so they pass on a loaded two-core machine.
func eventually(
    within deadline: Duration = .seconds(30), _ condition: @Sendable () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: deadline)
    while clock.now < end {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

/// The next `count` elements of `stream`, or fewer if it ends or `deadline` passes.
func collect<Element: Sendable>(
    _ count: Int, from stream: AsyncStream<Element>, within deadline: Duration = .seconds(30)
) async -> [Element] {
    await withTaskGroup(of: [Element]?.self) { group in
        group.addTask {
            var items: [Element] = []
            for await item in stream {
                items.append(item)
                if items.count == count { break }
            }
            return items
        }
        group.addTask {
            try? await Task.sleep(for: deadline)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first ?? []
    }
}
