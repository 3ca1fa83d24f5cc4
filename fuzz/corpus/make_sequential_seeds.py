#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_sequential (fuzz/targets/fuzz_sequential.cpp).

usage: fuzz/corpus/make_sequential_seeds.py [OUT_DIR]
       (default: fuzz/corpus/fuzz_sequential next to this script)

A seed is "RQS" 1, nprocs, then ops: a kind byte (its low 4 bits name the
op kind when that kind is valid in the model's state; the target picks by
weight otherwise) and argument bytes (indices into the candidate lists:
running Ps, free Ps, waiting Gs, Gs in a syscall). The scripts below track
just enough state to name the kinds they mean; a kind that happens to be
invalid still decodes to a valid op, so every seed runs.
"""
import os
import random
import sys

SPAWN, SPAWN_MANY, PARK, READY, GOSCHED, GOEXIT, SCHEDULE, STEAL, GLOBBATCH, \
    ENTERSYSCALL, EXITSYSCALL, PROCRESIZE, DRAIN, INJECT = range(14)


class Seed:
    def __init__(self, nprocs):
        self.b = bytearray(b"RQS\x01" + bytes([nprocs]))

    def op(self, kind, *args):
        self.b += bytes([kind, *args])
        return self

    def spawn(self, p=0): return self.op(SPAWN, p)
    def spawn_many(self, n, p=0): return self.op(SPAWN_MANY, p, n - 1)  # n in 1..256
    def park(self, p=0): return self.op(PARK, p)
    def ready(self, p=0, g=0): return self.op(READY, p, g)
    def gosched(self, p=0): return self.op(GOSCHED, p)
    def goexit(self, p=0): return self.op(GOEXIT, p)
    def schedule(self, p=0, seed=0): return self.op(SCHEDULE, p, seed)  # p: index among free Ps
    def steal(self, p=0, seed=0): return self.op(STEAL, p, seed)
    def globbatch(self, p=0, seed=0): return self.op(GLOBBATCH, p, seed)
    def entersyscall(self, p=0): return self.op(ENTERSYSCALL, p)
    def exitsyscall(self, g=0): return self.op(EXITSYSCALL, g)
    def procresize(self, n): return self.op(PROCRESIZE, n - 1)
    def drain(self, p=0): return self.op(DRAIN, p)
    def inject(self, p=0, k=255): return self.op(INJECT, p, k)


def seeds():
    out = {}
    # Fill P0's ring to 256 (plus runnext), then two more puts: runqputslow
    # moves half the ring and the kicked G to the global queue; then run
    # everything off the queues (global batches, the %61 check).
    s = Seed(1).spawn_many(256).spawn().spawn()
    for _ in range(140):
        s.goexit().schedule()
    out["fill256_spill"] = s
    # The same on 2 Ps, the second one stealing half of a full ring.
    s = Seed(2).spawn_many(256).spawn().schedule(0, 1).spawn(1)
    for i in range(20):
        s.goexit(i % 2).schedule(0, i)
    out["fill256_spill_steal"] = s
    # Steal-heavy: 4 Ps, small rings stolen back and forth, odd sizes (n - n/2).
    s = Seed(4)
    for n in (1, 2, 3, 5, 8):
        s.spawn_many(n).schedule(0, n).schedule(0, n + 1).schedule(0, n + 2)
        for p in (3, 2, 1):
            s.goexit(p).steal(0, p)
    for i in range(30):
        s.spawn(i % 4).goexit((i + 1) % 4).steal(0, i)
    out["steal_heavy"] = s
    # A steal of runnext alone (a single queued G on the victim).
    s = Seed(2).spawn().schedule(0, 0).spawn(1).goexit(0).steal(0, 3).spawn(0).spawn(1)
    out["steal_runnext"] = s
    # Global-batch-heavy: many Gs gosched to the global queue, idle Ps take
    # batches of min(size/gomaxprocs + 1, cap/2).
    s = Seed(3).spawn_many(200)
    for _ in range(150):
        s.gosched().schedule(0)
    s.schedule(0, 1).schedule(0, 2)
    for p in (1, 2):
        s.drain(p).gosched(p)
    s.globbatch(0, 0).globbatch(0, 1)
    for i in range(40):
        s.goexit(i % 3).globbatch(0, i).schedule(0, i)
    out["globbatch_heavy"] = s
    # Syscalls: enter hands the P off, exit returns to the old P, any free P,
    # or the global queue.
    s = Seed(2).spawn_many(6)
    for i in range(12):
        s.entersyscall(i % 2).schedule(0, i).schedule(0, i + 1).exitsyscall(i)
    for i in range(10):
        s.entersyscall(0).entersyscall(1).exitsyscall(0).exitsyscall(0).schedule(0)
    out["syscalls"] = s
    # procresize down and up with queued runnext/ring Gs on the Ps destroyed.
    s = Seed(4).spawn_many(40)
    for p in range(3):
        s.schedule(0, p).spawn_many(5, p + 1)
    s.procresize(2).schedule(0).schedule(0).procresize(4)
    for i in range(4):
        s.schedule(0, i)
    s.spawn_many(3, 1).procresize(1).procresize(3).schedule(0).schedule(0)
    out["procresize"] = s
    # injectglist: park Gs, then inject them (runqputbatch; leftovers global),
    # ready one by one, drain.
    s = Seed(2).spawn_many(30)
    for _ in range(20):
        s.park().schedule(0)
    s.inject(0, 4).inject(1, 255).ready(0, 0).schedule(0)
    for _ in range(10):
        s.park().schedule(0)
    s.inject(1, 2).drain(0).drain(1)
    out["inject"] = s
    s = Seed(1).spawn_many(250)
    for _ in range(250):
        s.park().schedule(0)
    s.inject(0, 255).schedule(0)
    out["inject_overflow"] = s
    # Fairness: one G waits on the global queue while P0's ring stays busy;
    # it must run by the 61st schedtick.
    s = Seed(1).spawn_many(200).gosched().schedule(0)
    for _ in range(80):
        s.goexit().schedule(0)
    out["fairness61"] = s
    # A long mix, drawn at random (fixed seed).
    rng = random.Random(5)
    s = Seed(3)
    s.b += bytes(rng.randrange(256) for _ in range(1500))
    out["random_mix"] = s
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "fuzz_sequential")
    os.makedirs(out_dir, exist_ok=True)
    for name, s in seeds().items():
        with open(os.path.join(out_dir, f"seed-{name}.rqs"), "wb") as f:
            f.write(bytes(s.b))
    print(f"wrote {len(seeds())} seeds to {out_dir}")


if __name__ == "__main__":
    main()
