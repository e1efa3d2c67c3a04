#!/usr/bin/env python3
"""Prints the Markdown tables of bench/entity_churn from its JSON (-O3 first, then -O2): the
median CPU time of each benchmark, and SlotPool's speed-up over each peer."""
import json
import sys

PEERS = ["SlotPool", "PlfColony", "VectorValues", "ObjectPoolStore", "NewDelete",
         "BoostObjectPool", "DenseHandles"]


def medians(path):
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") == "median":
            out[b["run_name"]] = b["cpu_time"]
    return out


def main():
    runs = [("-O3", medians(sys.argv[1])), ("-O2", medians(sys.argv[2]))]
    print("Frame loop, µs per frame (median CPU time); `x` = that peer's time / SlotPool's:\n")
    print("| opt | live | churn | " + " | ".join(PEERS) + " |")
    print("|" + " --- |" * (3 + len(PEERS)))
    for opt, m in runs:
        for live in (10000, 100000):
            for churn in (1, 10, 50):
                key = lambda p: f"Frame/{p}/live:{live}/churn:{churn}"
                base = m.get(key("SlotPool"))
                cells = []
                for p in PEERS:
                    t = m.get(key(p))
                    if t is None:
                        cells.append("—")
                    elif p == "SlotPool":
                        cells.append(f"**{t:.1f}**")
                    else:
                        cells.append(f"{t:.1f} ({t / base:.2f}x)")
                print(f"| {opt} | {live // 1000}k | {churn} % | " + " | ".join(cells) + " |")
    print("\nIteration alone and get(handle), ns per entity (median CPU time):\n")
    print("| opt | live | Iterate SlotPool | Iterate vector<T> | ratio | Iterate PlfColony "
          "| get(handle) | vector<T*>[i] | ratio |")
    print("|" + " --- |" * 9)
    for opt, m in runs:
        for live in (10000, 100000):
            it = {p: m.get(f"Iterate/{p}/live:{live}", 0) * 1000 / live
                  for p in ("SlotPool", "VectorValues", "PlfColony")}
            gh = m[f"Get/SlotPoolHandle/live:{live}"] * 1000 / live
            gp = m[f"Get/PointerVector/live:{live}"] * 1000 / live
            print(f"| {opt} | {live // 1000}k | {it['SlotPool']:.2f} | {it['VectorValues']:.2f} | "
                  f"{it['SlotPool'] / it['VectorValues']:.2f} | {it['PlfColony']:.2f} | "
                  f"{gh:.2f} | {gp:.2f} | {gh / gp:.2f} |")


if __name__ == "__main__":
    main()
