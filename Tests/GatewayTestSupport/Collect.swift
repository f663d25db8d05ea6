/// The next `count` elements of `stream`, or fewer if it ends or `deadline` passes.
package func collect<Element: Sendable>(
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
