#!/usr/bin/env python3
"""Merges two runs of bench/items59.sh (base and new) into one table:
kernel, then per binary the three runs' verdict, wall and CPU seconds.

usage: bench/items59_table.py BASE.txt NEW.txt
"""
import sys
from collections import OrderedDict


def read(path):
    rows = OrderedDict()
    with open(path) as f:
        next(f)
        for line in f:
            parts = line.split()
            if len(parts) != 6:
                continue
            name, kernel, _run, verdict, wall, cpu = parts
            rows.setdefault((name, kernel), []).append((verdict, float(wall), float(cpu)))
    return rows


base, new = read(sys.argv[1]), read(sys.argv[2])
print("| kernel | base: verdict (wall s / CPU s) x3 | new: verdict (wall s / CPU s) x3 |")
print("|---|---|---|")
for key in list(base) + [k for k in new if k not in base]:
    def cell(rows):
        return "; ".join(f"{v} ({w:.1f}/{c:.1f})" for v, w, c in rows.get(key, [])) or "-"
    print(f"| {key[0]} `{key[1]}` | {cell(base)} | {cell(new)} |")
