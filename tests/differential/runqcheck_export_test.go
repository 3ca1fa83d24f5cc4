// runqcheck differential oracle, runtime side: RunqcheckRun runs one
// operation sequence written by runqcheck's diff_gen through the real
// runtime's local run-queue functions (runqput, runqget, runqsteal,
// runqdrain; runqputslow through runqput on a full ring) on fresh p structs
// and returns the raw results. In package runtime (like export_test.go)
// because those functions are unexported; runqcheck_diff_test.go (package
// runtime_test) reads the files and formats the results.
//
// Not part of Go: runqcheck's run_diff.sh adds both files to package runtime
// with `go test -overlay`.
//
// runqputslow moves Gs to the real global queue (sched.runq). So that the
// real scheduler never sees the fake Gs, a sequence runs with the M acquired
// (no preemption, no scheduling on this M) under GOMAXPROCS=1 (set by the
// driver), and sched.runq is emptied under sched.lock before the sequence
// and restored after it. A G some other M queued meanwhile (an M leaving a
// syscall) is kept and put back.

package runtime

import "unsafe"

type RunqcheckOp struct {
	Kind    string
	A, B, C int
}

// Raw results:
//
//	get: i 1 g inherit | steal: i 2 g | drain: i 3 n g... |
//	final P: -1 4 p runnext n g... | global: -1 5 n g...
func RunqcheckRun(nprocs, ngs int, ops []RunqcheckOp) []int64 {
	ps := make([]*p, nprocs)
	for i := range ps {
		ps[i] = new(p)
	}
	gs := make([]g, ngs+1)
	for i := range gs {
		gs[i].goid = int64(i)
	}
	base := uintptr(unsafe.Pointer(&gs[0]))
	size := unsafe.Sizeof(gs[0])
	id := func(gp *g) int64 {
		if gp == nil {
			return -1
		}
		u := uintptr(unsafe.Pointer(gp))
		if u < base || u >= base+size*uintptr(len(gs)) {
			return -2 // not ours
		}
		return gp.goid
	}
	// Appended within capacity: nothing below allocates while the M is
	// acquired (an allocation could start a GC and block).
	rec := make([]int64, 0, 8*len(ops)+4*len(gs)+16*nprocs+64)

	mp := acquirem()
	lock(&sched.lock)
	savedQ, savedSize := sched.runq, sched.runqsize
	sched.runq, sched.runqsize = gQueue{}, 0
	unlock(&sched.lock)

	for i, o := range ops {
		pp := ps[o.A]
		switch o.Kind {
		case "put":
			runqput(pp, &gs[o.B], o.C != 0)
		case "putn":
			for j := 0; j < o.C; j++ {
				runqput(pp, &gs[o.B+j], false)
			}
		case "get":
			gp, inherit := runqget(pp)
			x := int64(0)
			if inherit {
				x = 1
			}
			rec = append(rec, int64(i), 1, id(gp), x)
		case "steal":
			gp := runqsteal(pp, ps[o.B], o.C != 0)
			rec = append(rec, int64(i), 2, id(gp))
		case "drain":
			q, n := runqdrain(pp)
			rec = append(rec, int64(i), 3, int64(n))
			for gp := q.pop(); gp != nil; gp = q.pop() {
				rec = append(rec, id(gp))
			}
		}
	}
	for i, pp := range ps {
		rec = append(rec, -1, 4, int64(i), id(pp.runnext.ptr()), int64(pp.runqtail-pp.runqhead))
		for h := pp.runqhead; h != pp.runqtail; h++ {
			rec = append(rec, id(pp.runq[h%uint32(len(pp.runq))].ptr()))
		}
	}

	lock(&sched.lock)
	var foreign gQueue
	var nforeign int32
	rec = append(rec, -1, 5, 0)
	at := len(rec) - 1
	for gp := sched.runq.pop(); gp != nil; gp = sched.runq.pop() {
		if id(gp) >= 0 {
			rec = append(rec, id(gp))
			rec[at]++
		} else {
			foreign.pushBack(gp)
			nforeign++
		}
	}
	sched.runq, sched.runqsize = savedQ, savedSize
	if nforeign > 0 {
		globrunqputbatch(&foreign, nforeign)
	}
	unlock(&sched.lock)
	releasem(mp)
	return rec
}
