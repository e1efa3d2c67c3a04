// The offset allocator's benchmarks: written with its issue.
