// runqcheck micro benchmarks, runtime side: the loops that bench/micro.cpp
// times on the C++ port, here on go1.27's own runtime functions (runqput,
// runqget, runqsteal, runqputslow through runqput on a full ring,
// globrunqgetbatch + runqputbatch, runqdrain) on fake Ps and Gs. In package runtime because those
// functions are unexported; runqcheck_bench_test.go (package runtime_test)
// wraps each in a Benchmark. Not part of Go: ci/bench adds both files to
// package runtime with `go test -overlay`, as tests/differential does.
//
// Each iteration does exactly what the C++ benchmark of the same name does,
// including the cheap reset that brings the state back (a ring's head moved
// back over slots that still hold the same Gs; the global queue's head and
// size restored). The loops that touch the real global queue (sched.runq)
// run with the M acquired under GOMAXPROCS=1 (set by ci/bench), with
// sched.runq saved and emptied before and restored after, as
// tests/differential's RunqcheckRun does, so the real scheduler never sees
// the fake Gs. Written against go1.25+ (gQueue carries its size;
// globrunqgetbatch); Go 1.24 and older have neither.

package runtime

import "unsafe"

func runqcheckBenchGs(n int) []g {
	gs := make([]g, n)
	for i := range gs {
		gs[i].goid = uint64(i + 1)
	}
	return gs
}

// runqcheckSavedGlobal: the real global queue, set aside (M acquired) while
// a benchmark loop uses sched.runq. Another M can still globrunqput a real G
// meanwhile (sysmon's netpoll injection, a GC worker being readied): sift
// moves such Gs to foreign, and restore puts them back after the loop.
type runqcheckSavedGlobal struct {
	q, foreign gQueue
}

func runqcheckSaveGlobal() (s runqcheckSavedGlobal) {
	lock(&sched.lock)
	s.q = sched.runq
	sched.runq = gQueue{}
	unlock(&sched.lock)
	return s
}

// sift empties sched.runq, keeping the Gs that are not in gs.
// sched.lock must be held.
func (s *runqcheckSavedGlobal) sift(gs []g) {
	assertLockHeld(&sched.lock)
	lo := uintptr(unsafe.Pointer(&gs[0]))
	hi := lo + uintptr(len(gs))*unsafe.Sizeof(gs[0])
	for gp := sched.runq.pop(); gp != nil; gp = sched.runq.pop() {
		if u := uintptr(unsafe.Pointer(gp)); u < lo || u >= hi {
			s.foreign.pushBack(gp)
		}
	}
}

func (s *runqcheckSavedGlobal) restore(gs []g) {
	lock(&sched.lock)
	s.sift(gs)
	sched.runq = s.q
	if !s.foreign.empty() {
		globrunqputbatch(&s.foreign)
	}
	unlock(&sched.lock)
}

// PutGet: runqput(pp, gp, false) + runqget(pp) on an empty P.
func RunqcheckBenchPutGet(n int) {
	pp := new(p)
	gs := runqcheckBenchGs(1)
	for i := 0; i < n; i++ {
		runqput(pp, &gs[0], false)
		if gp, _ := runqget(pp); gp != &gs[0] {
			throw("runqcheck PutGet: lost G")
		}
	}
}

// PutNextGet: runqput(pp, gp, true) + runqget(pp): through runnext.
func RunqcheckBenchPutNextGet(n int) {
	pp := new(p)
	gs := runqcheckBenchGs(1)
	for i := 0; i < n; i++ {
		runqput(pp, &gs[0], true)
		if gp, inherit := runqget(pp); gp != &gs[0] || !inherit {
			throw("runqcheck PutNextGet: lost G")
		}
	}
}

// Steal128: runqsteal from a victim with 256 queued (moves 128, returns one);
// reset: the victim's head goes back 128, the thief's ring is emptied.
func RunqcheckBenchSteal128(n int) {
	victim, thief := new(p), new(p)
	gs := runqcheckBenchGs(256)
	for i := range gs {
		runqput(victim, &gs[i], false)
	}
	for i := 0; i < n; i++ {
		if runqsteal(thief, victim, false) == nil || thief.runqtail-thief.runqhead != 127 {
			throw("runqcheck Steal128: wrong steal")
		}
		victim.runqhead -= 128
		thief.runqhead = thief.runqtail
	}
}

// PutSlow: runqput on a full ring (256), which runqputslow spills with half
// the ring (128 + the new G) to the global queue; reset: the ring's head goes
// back 128, the global queue is emptied (under sched.lock).
func RunqcheckBenchPutSlow(n int) {
	pp := new(p)
	gs := runqcheckBenchGs(257)
	for i := 0; i < 256; i++ {
		runqput(pp, &gs[i], false)
	}
	mp := acquirem()
	saved := runqcheckSaveGlobal()
	for i := 0; i < n; i++ {
		runqput(pp, &gs[256], false)
		lock(&sched.lock)
		if sched.runq.size == 129 && sched.runq.head.ptr() == &gs[0] &&
			sched.runq.tail.ptr() == &gs[256] {
			sched.runq = gQueue{}
		} else {
			saved.sift(gs) // a real G came in meanwhile
		}
		unlock(&sched.lock)
		pp.runqhead -= 128
	}
	saved.restore(gs)
	releasem(mp)
}

// GlobBatch: findRunnable's global step (go1.25+): globrunqgetbatch(128)
// under sched.lock with 256 Gs on the global queue (gomaxprocs 1: takes 128),
// then runqputbatch of the 127 into an empty P outside the lock; reset: the
// global queue restored (pop leaves the links), the P's ring emptied.
func RunqcheckBenchGlobBatch(n int) {
	pp := new(p)
	gs := runqcheckBenchGs(256)
	mp := acquirem()
	saved := runqcheckSaveGlobal()
	lock(&sched.lock)
	for i := range gs {
		globrunqput(&gs[i])
	}
	full := sched.runq
	unlock(&sched.lock)
	for i := 0; i < n; i++ {
		lock(&sched.lock)
		gp, q := globrunqgetbatch(int32(len(pp.runq)) / 2)
		unlock(&sched.lock)
		runqputbatch(pp, &q)
		if gp != &gs[0] || !q.empty() || pp.runqtail-pp.runqhead != 127 {
			throw("runqcheck GlobBatch: wrong batch")
		}
		lock(&sched.lock) // the reset, under the lock (as in micro.cpp)
		if sched.runq.size != 128 || sched.runq.tail.ptr() != &gs[255] {
			saved.sift(gs) // a real G came in meanwhile
			gs[255].schedlink = 0
		}
		sched.runq = full
		unlock(&sched.lock)
		pp.runqhead = pp.runqtail
	}
	saved.restore(gs)
	releasem(mp)
}

// Drain: runqdrain of a P with 256 queued and a runnext; reset: the head goes
// back 256 and runnext is set again.
func RunqcheckBenchDrain(n int) {
	pp := new(p)
	gs := runqcheckBenchGs(257)
	for i := 0; i < 256; i++ {
		runqput(pp, &gs[i], false)
	}
	pp.runnext.set(&gs[256])
	for i := 0; i < n; i++ {
		if q := runqdrain(pp); q.size != 257 {
			throw("runqcheck Drain: wrong count")
		}
		pp.runqhead -= 256
		pp.runnext.set(&gs[256])
	}
}
