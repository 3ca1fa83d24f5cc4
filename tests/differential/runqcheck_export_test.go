// runqcheck differential oracle, runtime side: RunqcheckRun runs one
// operation sequence written by runqcheck's diff_gen through the real
// runtime's run-queue functions on fresh p structs and returns the raw
// results: runqput (runqputslow through it on a full ring), runqputbatch,
// runqget, runqdrain, runqempty, runqsteal (runqgrab), globrunqput,
// globrunqget, globrunqgetbatch + runqputbatch (findRunnable's global step)
// and globrunqputhead in (*p).destroy's order. (*p).destroy itself is not
// callable here (it asserts a stopped world and frees the P's caches), so
// the "destroy" op pops the ring from its tail onto the global head with the
// real globrunqputhead, runnext last, as destroy does. In package runtime
// (like export_test.go) because those functions are unexported;
// runqcheck_diff_test.go (package runtime_test) reads the files and formats
// the results. Written against go1.27's runtime (gQueue carries its size;
// go1.25's runqputbatch and globrunqgetbatch).
//
// Not part of Go: runqcheck's run_diff.sh adds both files to package runtime
// with `go test -overlay`.
//
// The fake Gs reach the real global queue (sched.runq). So that the real
// scheduler never sees them, a sequence runs with the M acquired (no
// preemption, no scheduling on this M) under GOMAXPROCS=1 (set by the
// driver), and sched.runq is emptied under sched.lock before the sequence
// and restored after it. A G some other M queued meanwhile (an M leaving a
// syscall) is moved aside before each op that reads the global queue, and
// put back at the end. gomaxprocs is set to the sequence's P count
// for the sequence (globrunqgetbatch divides by it) and restored after.

package runtime

import "unsafe"

type RunqcheckOp struct {
	Kind    string
	A, B, C int
}

// Raw results:
//
//	get: i 1 g inherit | steal: i 2 g | drain: i 3 n g... |
//	final P: -1 4 p runnext n g... | global: -1 5 n g... |
//	empty: i 6 0|1 | putbatch: i 7 n left-g... | globget: i 8 g |
//	globbatch: i 9 g
func RunqcheckRun(nprocs, ngs int, ops []RunqcheckOp) []int64 {
	ps := make([]*p, nprocs)
	for i := range ps {
		ps[i] = new(p)
	}
	gs := make([]g, ngs+1)
	for i := range gs {
		gs[i].goid = uint64(i)
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
		return int64(gp.goid)
	}
	// Appended within capacity: nothing below allocates while the M is
	// acquired (an allocation could start a GC and block).
	rec := make([]int64, 0, 8*len(ops)+4*len(gs)+16*nprocs+64)

	mp := acquirem()
	lock(&sched.lock)
	savedQ, savedProcs := sched.runq, gomaxprocs
	sched.runq = gQueue{}
	gomaxprocs = int32(nprocs)
	unlock(&sched.lock)
	// A G another M queued meanwhile (an M leaving a syscall) is moved aside
	// before each op reads the global queue, so only the sequence's Gs count;
	// it is put back at the end. Called with sched.lock held.
	var foreign gQueue
	strip := func() {
		var ours gQueue
		for gp := sched.runq.pop(); gp != nil; gp = sched.runq.pop() {
			if id(gp) >= 0 {
				ours.pushBack(gp)
			} else {
				foreign.pushBack(gp)
			}
		}
		sched.runq = ours
	}
	queue := func(g0, k int) gQueue {
		var q gQueue
		for j := 0; j < k; j++ {
			q.pushBack(&gs[g0+j])
		}
		return q
	}

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
			q := runqdrain(pp)
			rec = append(rec, int64(i), 3, int64(q.size))
			for gp := q.pop(); gp != nil; gp = q.pop() {
				rec = append(rec, id(gp))
			}
		case "empty":
			x := int64(0)
			if runqempty(pp) {
				x = 1
			}
			rec = append(rec, int64(i), 6, x)
		case "putbatch":
			q := queue(o.B, o.C)
			runqputbatch(pp, &q)
			rec = append(rec, int64(i), 7, int64(q.size))
			for gp := q.pop(); gp != nil; gp = q.pop() {
				rec = append(rec, id(gp))
			}
		case "globput":
			lock(&sched.lock)
			globrunqput(&gs[o.B])
			unlock(&sched.lock)
		case "globget":
			lock(&sched.lock)
			strip()
			gp := globrunqget()
			unlock(&sched.lock)
			rec = append(rec, int64(i), 8, id(gp))
		case "globbatch":
			// findRunnable's "global runq" step on an empty ring.
			lock(&sched.lock)
			strip()
			gp, q := globrunqgetbatch(int32(len(pp.runq)) / 2)
			unlock(&sched.lock)
			runqputbatch(pp, &q)
			if !q.empty() {
				throw("runqcheck: Gs left after runqputbatch into an empty ring")
			}
			rec = append(rec, int64(i), 9, id(gp))
		case "destroy":
			lock(&sched.lock)
			for pp.runqhead != pp.runqtail {
				pp.runqtail--
				globrunqputhead(pp.runq[pp.runqtail%uint32(len(pp.runq))].ptr())
			}
			if pp.runnext != 0 {
				globrunqputhead(pp.runnext.ptr())
				pp.runnext = 0
			}
			unlock(&sched.lock)
		default:
			throw("runqcheck: unknown op " + o.Kind)
		}
	}
	for i, pp := range ps {
		rec = append(rec, -1, 4, int64(i), id(pp.runnext.ptr()), int64(pp.runqtail-pp.runqhead))
		for h := pp.runqhead; h != pp.runqtail; h++ {
			rec = append(rec, id(pp.runq[h%uint32(len(pp.runq))].ptr()))
		}
	}

	lock(&sched.lock)
	rec = append(rec, -1, 5, 0)
	at := len(rec) - 1
	for gp := sched.runq.pop(); gp != nil; gp = sched.runq.pop() {
		if id(gp) >= 0 {
			rec = append(rec, id(gp))
			rec[at]++
		} else {
			foreign.pushBack(gp)
		}
	}
	sched.runq, gomaxprocs = savedQ, savedProcs
	if !foreign.empty() {
		globrunqputbatch(&foreign)
	}
	unlock(&sched.lock)
	releasem(mp)
	return rec
}
