"""The machine's pace: how long a fixed piece of Python work takes right now.

    .venv/bin/python bench/pace.py            # 10 probes, then their median and range

This virtual machine's speed changes from hour to hour, and the host's
stolen time does not always show it: on a slow evening the same loop took
two to three times the CPU it took on a quiet afternoon, with `stolen` at
0 %. The live-room benchmarks print this figure beside their results, so
runs from different hours can be told apart, and a slow hour is seen
before an evening is spent measuring it (docs/benchmarks.md, "The
machine's pace").

The work is what a server process spends most of its time on: encoding
and decoding small JSON frames and moving them through dicts. It is timed
in CPU seconds of this process, so waiting for a core does not count; a
shared core running slower does.

The pace compares hours on one processor only. The virtual machine also
moves between hosts with different processors, where the probe and a
server's work do not scale alike (docs/benchmarks.md, "The machine's
pace"), so `processor()` names it beside every pace."""

import json
import statistics
import sys
import time

FRAME = {
    "type": "event",
    "event": {
        "seq": 0,
        "type": "token.moved",
        "data": {"token": {"id": 17, "x": 4, "y": 9, "name": "Tenrec"}, "by": "player"},
    },
}
ROUNDS = 4_000


def probe(rounds: int = ROUNDS) -> float:
    """One probe's CPU time in milliseconds, scaled to ROUNDS rounds: about
    40 ms when this machine is quick, about 85 ms when it runs at half speed."""
    dumps, loads = json.dumps, json.loads
    seen = {}
    start = time.process_time()
    for seq in range(rounds):
        FRAME["event"]["seq"] = seq
        frame = loads(dumps(FRAME))
        token = frame["event"]["data"]["token"]
        seen[token["id"], seq % 64] = (token["x"], token["y"])
    return (time.process_time() - start) * 1000 * ROUNDS / rounds


def processor() -> str:
    """The processor's model as the kernel names it, or "unknown"."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def paced_sleep(seconds: float, every: float = 1.0) -> list[float]:
    """Sleep for `seconds`, probing the pace every `every` seconds with a
    probe an eighth the size: under 1 % of a core, so a benchmark can watch
    the pace during its measured window without changing what it measures."""
    paces, end = [], time.perf_counter() + seconds
    while (left := end - time.perf_counter()) > 0:
        time.sleep(min(every, left))
        if end - time.perf_counter() > 0:
            paces.append(probe(ROUNDS // 8))
    return paces


def pace_ms(samples: int = 5) -> float:
    """The median of a few probes: the figure a benchmark reports."""
    return statistics.median(probe() for _ in range(samples))


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    times = [probe() for _ in range(samples)]
    print(" ".join(f"{t:.0f}" for t in times))
    print(
        f"pace {statistics.median(times):.0f} ms (median of {samples}; "
        f"{min(times):.0f} to {max(times):.0f}) on {processor()}"
    )


if __name__ == "__main__":
    main()
