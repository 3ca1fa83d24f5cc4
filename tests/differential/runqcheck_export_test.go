// runqcheck differential oracle, runtime side: RunqcheckRun runs one
// operation sequence written by runqcheck's diff_gen through the real
// runtime's run-queue functions on fresh p structs and returns the raw
// results: runqput (runqputslow through it on a full ring), runqputbatch,
// runqget, runqdrain, runqempty, runqsteal (runqgrab), globrunqput,
// globrunqget, globrunqgetbatch + runqputbatch (findRunnable's global step)
// and globrunqputhead in (*p).destroy's order. (*p).destroy itself is not
// callable here (it asserts a stopped world and frees the P's caches), so
// the "destroy" op pops the ring from its tail onto the global head with the
// real globrunqputhead, runnext last, as destroy does. RunqcheckIdleRun
// (below) runs an idle-list sequence: pidleput, pidleget, pidlegetSpinning,
// mput, mget and mgetSpecific on fake Ps and Ms. In package runtime
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

// runqcheckIndex is x's index in xs, -1 for nil, -2 if not one of xs.
func runqcheckIndex[T comparable](xs []T, x T) int64 {
	for i, y := range xs {
		if y == x {
			return int64(i)
		}
	}
	var none T
	if x == none {
		return -1
	}
	return -2
}

// RunqcheckIdleRun runs one idle-list sequence through the real pidleput,
// pidleget, pidlegetSpinning, mput, mget and mgetSpecific (go1.26's midle
// list) on fake Ps and Ms. "pidleput" and "mput" take the lowest-numbered P
// (M) not idle by this side's own state (idlepMask; a walk of midle), so a
// subject whose lists differ goes on from its own state.
//
// The real sched.pidle, npidle, midle, nmidle and needspinning are set aside
// under sched.lock for the whole sequence, and the fake Ps' idlepMask and
// timerpMask bits (ids 1..nprocs: not the real P0's) saved; all are put back
// before the lock is released, so no other M sees a fake P or M. sched.mnext
// is raised by nms meanwhile: mput's checkdead then counts the fake idle Ms
// as Ms (it throws "checkdead: inconsistent counts" otherwise). Every call
// gets the same `now`, so the P limiter accounts no idle time.
//
// Raw results: i kind x [y] with kind 11 pidleput p, 12 pidleget p,
// 13 pidlegetspin p needspinning (then cleared), 14 mput m, 15 mget m,
// 16 mgetspec m; then -1 17 n p... (pidle from its head), -1 18 npidle,
// -1 19 n m... (midle from its head), -1 20 nmidle.
func RunqcheckIdleRun(nprocs, nms int, ops []RunqcheckOp) []int64 {
	ps := make([]*p, nprocs)
	for i := range ps {
		ps[i] = new(p)
		ps[i].id = int32(i + 1)
	}
	ms := make([]*m, nms)
	for i := range ms {
		ms[i] = new(m)
		ms[i].id = int64(i)
	}
	pidx := func(pp *p) int64 { return runqcheckIndex(ps, pp) }
	midx := func(mp *m) int64 { return runqcheckIndex(ms, mp) }
	next := func(mp *m) *m { return (*m)(unsafe.Pointer(mp.idleNode.next)) }
	idleM := func(mp *m) bool {
		for x := (*m)(sched.midle.head()); x != nil; x = next(x) {
			if x == mp {
				return true
			}
		}
		return false
	}
	// Allocated here: nothing below allocates while sched.lock is held.
	rec := make([]int64, 0, 4*len(ops)+2*nprocs+2*nms+32)
	savedIdle, savedTimer := make([]bool, nprocs), make([]bool, nprocs)
	const now = 1

	cur := acquirem()
	lock(&sched.lock)
	savedPidle, savedNpidle := sched.pidle, sched.npidle.Load()
	savedMidle, savedNmidle := sched.midle.obj, sched.nmidle
	savedNeed := sched.needspinning.Load()
	for i, pp := range ps {
		savedIdle[i] = idlepMask.read(uint32(pp.id))
		savedTimer[i] = timerpMask.read(uint32(pp.id))
		idlepMask.clear(pp.id)
	}
	sched.pidle = 0
	sched.npidle.Store(0)
	sched.midle.obj = 0
	sched.nmidle = 0
	sched.needspinning.Store(0)
	sched.mnext += int64(nms)

	for i, o := range ops {
		switch o.Kind {
		case "pidleput":
			var pick *p
			for _, pp := range ps {
				if !idlepMask.read(uint32(pp.id)) {
					pick = pp
					break
				}
			}
			if pick != nil {
				pidleput(pick, now)
			}
			rec = append(rec, int64(i), 11, pidx(pick))
		case "pidleget":
			pp, _ := pidleget(now)
			rec = append(rec, int64(i), 12, pidx(pp))
		case "pidlegetspin":
			pp, _ := pidlegetSpinning(now)
			rec = append(rec, int64(i), 13, pidx(pp), int64(sched.needspinning.Load()))
			sched.needspinning.Store(0)
		case "mput":
			var pick *m
			for _, mp := range ms {
				if !idleM(mp) {
					pick = mp
					break
				}
			}
			if pick != nil {
				mput(pick)
			}
			rec = append(rec, int64(i), 14, midx(pick))
		case "mget":
			rec = append(rec, int64(i), 15, midx(mget()))
		case "mgetspec":
			rec = append(rec, int64(i), 16, midx(mgetSpecific(ms[o.A])))
		default:
			unlock(&sched.lock)
			throw("runqcheck: unknown idle op " + o.Kind)
		}
	}
	// The lists from their heads (at most one entry more than exist: a cycle).
	rec = append(rec, -1, 17, 0)
	at := len(rec) - 1
	for pp, k := sched.pidle.ptr(), 0; pp != nil && k <= nprocs; pp, k = pp.link.ptr(), k+1 {
		rec = append(rec, pidx(pp))
		rec[at]++
	}
	rec = append(rec, -1, 18, int64(sched.npidle.Load()), -1, 19, 0)
	at = len(rec) - 1
	for mp, k := (*m)(sched.midle.head()), 0; mp != nil && k <= nms; mp, k = next(mp), k+1 {
		rec = append(rec, midx(mp))
		rec[at]++
	}
	rec = append(rec, -1, 20, int64(sched.nmidle))

	sched.mnext -= int64(nms)
	sched.pidle, sched.midle.obj, sched.nmidle = savedPidle, savedMidle, savedNmidle
	sched.npidle.Store(savedNpidle)
	sched.needspinning.Store(savedNeed)
	for i, pp := range ps {
		if savedIdle[i] {
			idlepMask.set(pp.id)
		} else {
			idlepMask.clear(pp.id)
		}
		if savedTimer[i] {
			timerpMask.set(pp.id)
		} else {
			timerpMask.clear(pp.id)
		}
	}
	unlock(&sched.lock)
	releasem(cur)
	return rec
}
