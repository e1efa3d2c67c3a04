#!/usr/bin/env python3
"""Turns the JSON of memory_bench (-O3), memory_bench_o2 (the same peers at -O2) and
memory_bench_mimalloc into the pool table of docs/memory.md (median ns per
create+destroy pair, and ratios against ObjectPool measured in the same binary and run).

    scripts/pool_bench_table.py memory_bench.json memory_bench_o2.json memory_bench_mimalloc.json
                                [--doc FILE]

With --doc, the text between the pool-bench markers in FILE is replaced; otherwise the table
is printed.
"""
import argparse
import json
import re
import sys

BEGIN, END = "<!-- pool-bench:begin -->", "<!-- pool-bench:end -->"
ORDER = ["ObjectPool", "PointerStackPool", "BoostPool", "BoostObjectPool", "PmrUnsyncPool",
         "PmrMonotonic", "BumpFloor", "FreeListFloor", "NewDelete", "Mimalloc"]
COLUMNS = [("lifo", 1000), ("lifo", 10000), ("lifo", 100000),
           ("shuffled", 1000), ("shuffled", 10000), ("shuffled", 100000)]


def medians(path):
    """{(peer, order, n) or (peer, 'tight', 0): ns per pair} from one JSON file."""
    with open(path) as f:
        data = json.load(f)
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median" or "ns_per_pair" not in b:
            continue
        name = b["run_name"]
        ns = b["ns_per_pair"] * 1e9  # the counter is seconds per pair
        m = re.match(r"Frame/(\w+)/n:(\d+)/shuffled:(\d)", name)
        if m:
            order = "shuffled" if m.group(3) == "1" else "lifo"
            out[(m.group(1), order, int(m.group(2)))] = ns
        m = re.match(r"Tight/(\w+)$", name)
        if m:
            out[(m.group(1), "tight", 0)] = ns
    return out, data.get("context", {})


def table(runs):
    lines = ["| peer (binary) | " + " | ".join(f"{o} {n // 1000}k" for o, n in COLUMNS)
             + " | tight loop |",
             "|---" * (len(COLUMNS) + 2) + "|"]
    for results, binary in runs:
        peers = sorted({peer for (peer, _, _) in results},
                       key=lambda p: (ORDER.index(p) if p in ORDER else len(ORDER), p))
        for peer in peers:
            cells = []
            for key in [(peer, o, n) for o, n in COLUMNS] + [(peer, "tight", 0)]:
                ns = results.get(key)
                base = results.get(("ObjectPool",) + key[1:])
                if ns is None:
                    cells.append("n/a")
                elif peer == "ObjectPool" or base is None:
                    cells.append(f"**{ns:.2f}**" if peer == "ObjectPool" else f"{ns:.2f}")
                else:
                    cells.append(f"{ns:.2f} ({ns / base:.1f}x)")
            lines.append(f"| {peer} ({binary}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("memory_bench_json")
    parser.add_argument("memory_bench_o2_json")
    parser.add_argument("memory_bench_mimalloc_json")
    parser.add_argument("--doc", metavar="FILE")
    args = parser.parse_args()
    doc = args.doc
    main_results, context = medians(args.memory_bench_json)
    o2_results, _ = medians(args.memory_bench_o2_json)
    mi_results, _ = medians(args.memory_bench_mimalloc_json)
    text = table([(main_results, "memory_bench, -O3"), (o2_results, "memory_bench_o2, -O2"),
                  (mi_results, "memory_bench_mimalloc, -O3")])
    cpu = f"{context.get('num_cpus', '?')} CPUs at {context.get('mhz_per_cpu', '?')} MHz"
    text += (f"\n\nMedian ns per create+destroy pair of 5 interleaved repetitions, {cpu}. "
             "In brackets: the ratio to ObjectPool in the same run "
             "(above 1x means slower than the pool).")
    if doc is None:
        print(text)
        return
    with open(doc) as f:
        content = f.read()
    if BEGIN not in content or END not in content:
        sys.exit(f"{doc}: no {BEGIN} ... {END} markers")
    head, rest = content.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(doc, "w") as f:
        f.write(head + BEGIN + "\n" + text + "\n" + END + tail)
    print(f"updated {doc}")


if __name__ == "__main__":
    main()
