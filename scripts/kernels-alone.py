#!/usr/bin/env python3
"""Checks every `__global__` kernel of a CUDA corpus alone, one run each.

A user who wants one kernel checked runs `lockstep check FILE --kernel=NAME`;
this script does that for every kernel of every `.cu` file under a folder
(NVIDIA's CUDA samples: `Samples/`), with the corpus's common include folder
and the file's own folder on the include path, and sorts the outcomes:
crashes (no JSON document, an exit status outside 0-3, or an internal
error: there must be none), rejections (each listed with clang's or
lockstep's reason), and the verdicts of the others.

Kernels are found in the source text: each `__global__` declaration of the
file, and of the headers it includes with quotes from its own folder, gives
the name before its parameter list. A template kernel's name selects every
instantiation the file compiles (`--kernel` takes the name); a name the
compiled file has no kernel for (a template never instantiated, a kernel
behind a preprocessor condition that is false) is listed apart, since there
is nothing to check.

Usage:
  scripts/kernels-alone.py --lockstep target/release/lockstep \\
      --root ../shared/corpora/cuda-samples [--timeout 10] [--deadline SECONDS] \\
      [--out DIR] [--jobs N]
`--timeout 0` passes no `--timeout`: each check then runs on lockstep's own
budgets (z3 work and CPU time, which load does not shrink), and the script
kills a check only after `--kill-after` seconds (default 900). Each row
records wall and CPU seconds (user + system of lockstep and its solvers),
and `unknown` verdicts are sorted by reason: the inference budget, a time
limit, or anything else.
The run is niced and makes `--jobs` checks at a time (default 1). Each
check's JSON document is kept as DIR/runs/NNNN.json (the row's `run`), so
verdicts can be reviewed without running again. `--deadline` stops
starting new checks after that many seconds and says how many were left;
the first kernel of every file is checked before any file's second.
`--skip-done JSON` skips the kernels a previous run's kernels-alone.json
lists, so that a long measurement can be made in several runs.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def strip_comments_and_strings(text):
    """The text with comments and string literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * max(0, j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def kernel_names(text):
    """The names of the `__global__` functions declared in `text`."""
    code = strip_comments_and_strings(text)
    names = []
    for m in re.finditer(r"\b__global__\b", code):
        if code[: m.start()].rstrip().endswith("#define"):
            continue
        # The name is the identifier before the first parenthesis that is
        # not an attribute's or `__launch_bounds__`'s.
        i = m.end()
        while i < len(code):
            p = code.find("(", i)
            if p < 0:
                break
            before = code[i:p]
            if ";" in before or "{" in before:
                break
            ident = re.search(r"([A-Za-z_]\w*)\s*$", before)
            if ident and ident.group(1) in ("__launch_bounds__", "__attribute__", "__declspec", "alignas", "__align__", "__maxnreg__"):
                # Skip the attribute's balanced parentheses.
                depth, j = 0, p
                while j < len(code):
                    if code[j] == "(":
                        depth += 1
                    elif code[j] == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                i = j + 1
                continue
            if ident and ident.group(1) not in names and ident.group(1) not in ("void", "operator"):
                names.append(ident.group(1))
            break
    return names


def local_headers(path, folder, seen):
    """The headers `path` includes with quotes that lie in `folder` (the
    sample's own folder) or below it, transitively."""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return []
    out = []
    for inc in INCLUDE_RE.findall(text):
        cand = os.path.abspath(os.path.join(os.path.dirname(path), inc))
        if not os.path.isfile(cand):
            # A header of the sample's own include folder (FDTD3d's inc/).
            found = [os.path.join(d, inc) for d, _, _ in os.walk(folder) if os.path.isfile(os.path.join(d, inc))]
            cand = os.path.abspath(found[0]) if found else cand
        if cand in seen or not os.path.isfile(cand) or not cand.startswith(folder + os.sep):
            continue
        seen.add(cand)
        out.append(cand)
        out.extend(local_headers(cand, folder, seen))
    return out


def kernels_of(path):
    names = []
    path = os.path.abspath(path)
    # The sample's folder: Samples/<category>/<sample> (a sample's sources
    # may sit in src/ and its kernels in inc/), else the file's own.
    parts = path.split(os.sep)
    folder = os.path.dirname(path)
    if "Samples" in parts:
        at = len(parts) - 1 - parts[::-1].index("Samples")
        if len(parts) > at + 3:
            folder = os.sep.join(parts[: at + 3])
    for f in [path] + local_headers(path, folder, {path}):
        try:
            text = open(f, encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        for n in kernel_names(text):
            if n not in names:
                names.append(n)
    return names


def classify(rc, stdout):
    """(outcome, reason) of one run."""
    try:
        doc = json.loads(stdout)
    except ValueError:
        return "crash", f"no JSON document (exit status {rc})"
    if rc not in (0, 1, 2, 3):
        return "crash", f"exit status {rc}"
    text = json.dumps(doc)
    if "internal error" in text or "panicked" in text:
        return "crash", "internal error: " + text[:300]
    verdict = doc.get("verdict")
    if verdict == "rejected":
        reason = doc.get("error") or "; ".join(d.get("message", "") for d in doc.get("diagnostics", []))
        notes = [d["message"] for d in doc.get("diagnostics", []) if d.get("severity") == "note"]
        if notes:
            reason += " [" + " | ".join(notes) + "]"
        return "rejected", reason
    reasons = [k.get("reason", {}).get("message", "") for k in doc.get("kernels", []) if k.get("verdict") == "unknown" and k.get("reason")]
    return verdict or "none", reasons[0] if reasons else ""


def run_measured(cmd, kill_after):
    """Runs `cmd`; returns (stdout, exit status, CPU seconds of it and the
    processes it waited for). Killed (with its process group) after
    `kill_after` seconds."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    timer = threading.Timer(kill_after, lambda: os.killpg(p.pid, 9))
    timer.start()
    try:
        stdout = p.stdout.read()
        _, status, usage = os.wait4(p.pid, 0)
    finally:
        timer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    return stdout, p.returncode, usage.ru_utime + usage.ru_stime


def unknown_class(reason):
    """Why a kernel ended unknown, in a word: the inference budget, a time
    limit (lockstep's --timeout or a solver's), or something else."""
    if "budget" in reason:
        return "budget"
    if "timed out" in reason or "no time was left" in reason or "timeout" in reason:
        return "time-limit"
    return "other"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lockstep", required=True)
    ap.add_argument("--root", required=True, help="the corpus (with Samples/ and Common/)")
    ap.add_argument("--timeout", default="10", help="lockstep's --timeout; 0 for none")
    ap.add_argument("--kill-after", type=float, default=900.0, help="with --timeout 0: kill a check after this many seconds")
    ap.add_argument("--deadline", type=float, default=None)
    ap.add_argument("--out", default=".")
    ap.add_argument("--only", default=None, help="only files whose path contains this")
    ap.add_argument("--jobs", type=int, default=1, help="checks run at a time")
    ap.add_argument("--skip-done", default=None, help="a previous run's kernels-alone.json: skip the kernels it checked")
    args = ap.parse_args()
    samples = os.path.join(args.root, "Samples")
    common = os.path.join(args.root, "Common")
    files = []
    for d, dirs, fs in os.walk(samples):
        dirs.sort()
        for f in sorted(fs):
            if f.endswith(".cu"):
                files.append(os.path.join(d, f))
    if args.only:
        files = [f for f in files if args.only in f]
    # The first kernel of every file first, then the second of every file,
    # and so on: a run stopped by --deadline has still compiled every file.
    work = [(i, n, f, k) for n, f in enumerate(files) for i, k in enumerate(kernels_of(f))]
    work = [(f, k) for _, _, f, k in sorted(work)]
    if args.skip_done:
        with open(args.skip_done) as fh:
            done = {(r["file"], r["kernel"]) for r in json.load(fh)["rows"]}
        work = [(f, k) for f, k in work if (os.path.relpath(f, samples), k) not in done]
    print(f"{len(files)} files, {len(work)} kernels", file=sys.stderr)
    os.makedirs(os.path.join(args.out, "runs"), exist_ok=True)
    rows = []
    start = time.time()
    lock = threading.Lock()
    skipped = []

    def write_rows(rows, left):
        path = os.path.join(args.out, "kernels-alone.json")
        with open(path + ".tmp", "w") as fh:
            json.dump({"rows": rows, "left": left, "elapsed_s": round(time.time() - start)}, fh, indent=1)
        os.replace(path + ".tmp", path)

    def check(i, f, k):
        if args.deadline is not None and time.time() - start > args.deadline:
            with lock:
                skipped.append(i)
            return
        cmd = ["nice", "-n", "10", args.lockstep, "check", f, f"--kernel={k}", "-I", common, "-I", os.path.dirname(f), "--format=json"]
        if args.timeout not in ("0", ""):
            cmd.append(f"--timeout={args.timeout}")
        t0 = time.time()
        stdout, rc, cpu = run_measured(cmd, args.kill_after)
        wall = time.time() - t0
        outcome, reason = classify(rc, stdout)
        if outcome == "rejected" and "no kernel named" in reason:
            outcome = "not-compiled"
        rel = os.path.relpath(f, samples)
        run = f"runs/{i:04}.json"
        with open(os.path.join(args.out, run), "w") as fh:
            fh.write(stdout)
        with lock:
            rows.append({"index": i, "file": rel, "kernel": k, "outcome": outcome, "reason": reason, "rc": rc, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "run": run})
            print(f"[{len(rows)}/{len(work)}] {outcome:16} {wall:5.1f} s {cpu:5.1f} cpu  {rel} --kernel={k}", file=sys.stderr, flush=True)
            # The rows so far, so that a run stopped early can be continued
            # with `--skip-done` and its figures read.
            write_rows(rows, len(work) - len(rows))

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for i, (f, k) in enumerate(work):
            pool.submit(check, i, f, k)
    rows.sort(key=lambda r: r["index"])
    left = len(skipped)
    write_rows(rows, left)
    counts = {}
    for r in rows:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    print(f"checked {len(rows)} of {len(work)} kernels of {len(files)} files in {time.time() - start:.0f} s; not started (deadline): {left}")
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    decided = [r for r in rows if r["outcome"] not in ("rejected", "not-compiled", "crash")]
    for key in ("wall_s", "cpu_s"):
        xs = sorted(r[key] for r in decided)
        if xs:
            p95 = xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
            print(f"{key} of {len(xs)} checked kernels: median {xs[len(xs) // 2]}, p95 {p95}, max {xs[-1]}")
    reasons = {}
    for r in rows:
        if r["outcome"] == "unknown":
            cls = unknown_class(r["reason"])
            reasons[cls] = reasons.get(cls, 0) + 1
    print("unknown by reason: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    for kind in ("crash", "rejected", "not-compiled"):
        for r in rows:
            if r["outcome"] == kind:
                print(f"{kind}\t{r['file']}\t{r['kernel']}\t{r['reason'][:400]}")
    sys.exit(1 if counts.get("crash") else 0)


if __name__ == "__main__":
    main()
