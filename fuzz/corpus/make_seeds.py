#!/usr/bin/env python3
"""Writes the checked-in seed corpus of fuzz_interleave: the shapes of the
scenario catalog (models/scenarios/catalog.hpp) in the seed format of
fuzz/include/runqcheck_fuzz/input.hpp, each with no scheduling choices (the
fallback: threads run one after the other) and with an alternating schedule
(a switch at every point). Re-run after a format change:
    python3 fuzz/corpus/make_seeds.py fuzz/corpus/fuzz_interleave
"""
import os
import sys

CAPS = [4, 8, 16, 32, 64, 128, 256]
# op bytes: kind = b % 8, argument = b // 8
PUT, PUT_NEXT, GET, STEAL, STEAL_NEXT, DRAIN, GLOB_BATCH = 0, 1, 2, 3, 4, 5, 6
GLOB_PUT, GLOB_GET, WAIT = 7, 15, 23          # kind 7, argument 0 / 1 / 2


def victim_arg(t, n, victim):
    """The argument byte part that makes thread t of n steal from victim."""
    for arg in range(n - 1):
        if (t + 1 + arg) % n == victim:
            return 8 * arg
    raise ValueError("bad victim")


def seed(subject=0, cap=4, threads=(), fill=(0, 0), runnext=(False, False), nglobal=0, counters=0):
    b = bytearray(b"RQF\x01")
    b += bytes([subject, CAPS.index(cap), len(threads) - 2, fill[0], fill[1],
                (1 if runnext[0] else 0) | (2 if runnext[1] else 0) | (nglobal << 2), counters])
    for script in threads:
        b += bytes([len(script)] + list(script))
    return bytes(b)


def shapes():
    n2, n3 = 2, 3
    sn = lambda t, n, v: STEAL_NEXT + victim_arg(t, n, v)
    st = lambda t, n, v: STEAL + victim_arg(t, n, v)
    yield "owner_vs_thief", seed(threads=([PUT, PUT_NEXT, PUT_NEXT, GET, PUT, PUT, PUT, GET], [sn(1, n2, 0), GET, GET]))
    yield "owner_vs_two_thieves", seed(fill=(3, 0), runnext=(True, False),
                                       threads=([PUT, GET, PUT, GET], [sn(1, n3, 0), GET], [sn(2, n3, 0), GET]))
    yield "steal_runnext_vs_runqget", seed(runnext=(True, False), threads=([GET], [sn(1, n2, 0), GET]))
    yield "put_kicks_runnext_during_steal", seed(runnext=(True, False),
                                                 threads=([PUT_NEXT, PUT, GET], [sn(1, n2, 0), GET]))
    yield "overflow_vs_grab", seed(fill=(4, 0), threads=([PUT, PUT, GET], [st(1, n2, 0), GET]))
    yield "drain_vs_thief", seed(fill=(3, 0), runnext=(True, False), threads=([DRAIN], [sn(1, n2, 0), GET]))
    yield "drain_vs_thief_relink", seed(fill=(3, 0), runnext=(True, False), threads=([DRAIN], [st(1, n2, 0), DRAIN]))
    yield "overflow_vs_global", seed(fill=(4, 0), nglobal=1, threads=([PUT, GET], [GLOB_PUT, GLOB_GET, GLOB_GET]))
    yield "global_batch_race", seed(nglobal=7, threads=([GLOB_BATCH, GET, GET], [GLOB_BATCH, GET]))
    yield "empty_next_kick", seed(runnext=(True, False), threads=([PUT_NEXT, GET, PUT_NEXT, GET], [sn(1, n2, 0)]))
    yield "two_way_steal", seed(fill=(3, 3), threads=([GET, st(0, n2, 1), GET], [GET, st(1, n2, 0), GET]))
    yield "wrap_counters", seed(fill=(3, 0), counters=2, threads=([PUT, GET, PUT, GET], [st(1, n2, 0), GET]))
    yield "wait_then_drain", seed(fill=(2, 0), threads=([PUT, PUT], [sn(1, n3, 0), GET], [WAIT, DRAIN]))
    yield "cap8_steal_half", seed(cap=8, fill=(7, 0), threads=([PUT, GET, GET], [st(1, n2, 0), GET, GET]))
    yield "cap256_spill_vs_steal", seed(cap=256, fill=(255, 0), threads=([PUT, PUT, GET], [st(1, n2, 0), GET]))
    yield "cap16_global_mix", seed(cap=16, fill=(16, 0), nglobal=3,
                                   threads=([PUT, PUT, GLOB_GET], [GLOB_BATCH, GET], [sn(2, n3, 0), GET]))
    for subject, name in ((1, "go124"), (2, "locked_runq")):
        yield f"{name}_owner_vs_thief", seed(subject=subject,
                                             threads=([PUT, PUT_NEXT, PUT_NEXT, GET, PUT, PUT, PUT, GET], [sn(1, n2, 0), GET, GET]))
        yield f"{name}_drain_vs_thief", seed(subject=subject, fill=(3, 0), runnext=(True, False),
                                             threads=([DRAIN], [sn(1, n2, 0), GET]))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "fuzz_interleave")
    os.makedirs(out, exist_ok=True)
    for name, s in shapes():
        with open(os.path.join(out, f"seed-{name}.rqf"), "wb") as f:
            f.write(s)
        with open(os.path.join(out, f"seed-{name}-alternating.rqf"), "wb") as f:
            f.write(s + bytes([1, 2] * 48))


if __name__ == "__main__":
    main()
