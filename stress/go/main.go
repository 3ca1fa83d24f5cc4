// Command rqbench is the Go peer of runqcheck's stress scheduler
// (runqcheck_stress): the workloads of the shared contract, each a round of
// fixed work, mirrored from Go 1.19's own benchmarks and tests
// (src/runtime/proc_test.go, chan_test.go). See README.md for each workload
// and the Go function it mirrors.
//
// Usage:
//
//	rqbench -workload W -procs N -size K -rounds R [-seed S]
//
// It runs one warm-up round (not counted), then R timed rounds, and prints
//
//	bench: workload=W procs=N size=K rounds=R median_ns=… min_ns=… max_ns=…
//
// (per-round wall time; procs is the GOMAXPROCS the rounds ran under, 1 for
// PingPongHog). Design: the round functions are written as close to Go's
// originals as the round shape allows (b.N becomes K); a runtime.GC() before
// each round (untimed, as testing does before a benchmark) keeps one round's
// garbage out of the next. Rejected: driving the workloads through `go test
// -bench` (b.N is chosen by the framework, and the contract wants a fixed K
// and per-round times, as the C++ side reports them).
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A workload runs one round of size k under GOMAXPROCS procs and returns the
// time it measured (most rounds time everything they do).
type workload struct {
	name  string
	setup func(procs, k int) // once, before the warm-up round (may be nil)
	round func(procs, k, round int) time.Duration
}

var workloads = []workload{
	{"CreateGoroutines", nil, func(procs, k, _ int) time.Duration { return timed(func() { createGoroutines(1, k) }) }},
	{"CreateGoroutinesParallel", nil, func(procs, k, _ int) time.Duration { return timed(func() { createGoroutines(procs, k) }) }},
	{"CreateGoroutinesSingle", func(procs, _ int) { warmupScheduler(procs) }, func(_, k, _ int) time.Duration {
		return timed(func() { createGoroutinesSingle(k) })
	}},
	{"PingPongHog", nil, func(_, k, _ int) time.Duration { return pingPongHog(k) }},
	{"WakeupParallelSpinning", nil, func(_, k, _ int) time.Duration { return timed(func() { wakeupParallel(k, spinFor) }) }},
	{"WakeupParallelSyscall", nil, func(_, k, _ int) time.Duration { return timed(func() { wakeupParallel(k, sysNanosleep) }) }},
	{"Matmult", func(_, k int) { matA, matB, matC = makeMatrix(k), makeMatrix(k), makeMatrix(k) }, func(_, k, _ int) time.Duration {
		return timed(func() { matmult(nil, matA, matB, matC, 0, k, 0, k, 0, k, 8) })
	}},
	{"ChanProdCons", nil, func(procs, k, _ int) time.Duration { return timed(func() { chanProdCons(procs, k, 10, 100) }) }},
	{"skynet", nil, func(_, k, _ int) time.Duration { return timed(func() { skynetRound(k) }) }},
	{"GoroutineParallelism2", nil, func(procs, k, _ int) time.Duration {
		return timed(func() { goroutineParallelism2(procs, k) })
	}},
	{"chaos", nil, func(procs, k, round int) time.Duration { return timed(func() { chaos(procs, k, *seed, round) }) }},
}

var seed = flag.Int64("seed", 1, "seed of the chaos workload (round r uses seed+r)")

func main() {
	name := flag.String("workload", "", "workload to run (see -list)")
	procs := flag.Int("procs", runtime.NumCPU(), "GOMAXPROCS (PingPongHog forces 1)")
	size := flag.Int("size", 0, "K: the size of one round (workload-specific)")
	rounds := flag.Int("rounds", 5, "timed rounds (after one warm-up round)")
	list := flag.Bool("list", false, "print the workload names and exit")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: rqbench -workload W -procs N -size K -rounds R [-seed S] | -list")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *list {
		for _, w := range workloads {
			fmt.Println(w.name)
		}
		return
	}
	var w *workload
	for i := range workloads {
		if workloads[i].name == *name {
			w = &workloads[i]
		}
	}
	switch {
	case flag.NArg() != 0:
		die("unexpected argument %q", flag.Arg(0))
	case w == nil:
		die("unknown -workload %q (-list shows them)", *name)
	case *procs < 1:
		die("-procs must be >= 1, got %d", *procs)
	case *size < 1:
		die("-size must be >= 1, got %d", *size)
	case *rounds < 1:
		die("-rounds must be >= 1, got %d", *rounds)
	}
	ranProcs := *procs
	if w.name == "PingPongHog" {
		ranProcs = 1 // Go: defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	}
	runtime.GOMAXPROCS(ranProcs)
	if w.setup != nil {
		w.setup(ranProcs, *size)
	}
	ns := make([]int64, 0, *rounds)
	for r := -1; r < *rounds; r++ { // r == -1: the warm-up round, not counted
		runtime.GC()
		d := w.round(ranProcs, *size, r+1)
		if r >= 0 {
			ns = append(ns, d.Nanoseconds())
		}
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
	median := ns[len(ns)/2]
	if len(ns)%2 == 0 {
		median = (ns[len(ns)/2-1] + ns[len(ns)/2]) / 2
	}
	fmt.Printf("bench: workload=%s procs=%d size=%d rounds=%d median_ns=%d min_ns=%d max_ns=%d\n",
		w.name, ranProcs, *size, *rounds, median, ns[0], ns[len(ns)-1])
}

func die(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "rqbench: "+format+"\n", a...)
	os.Exit(2)
}

func timed(f func()) time.Duration {
	t0 := time.Now()
	f()
	return time.Since(t0)
}

// CreateGoroutines / CreateGoroutinesParallel. Go: benchmarkCreateGoroutines
// (proc_test.go) with b.N = k: procs chains; f(n) spawns f(n-1) and exits,
// f(0) signals the main G.
func createGoroutines(procs, k int) {
	c := make(chan bool)
	var f func(n int)
	f = func(n int) {
		if n == 0 {
			c <- true
			return
		}
		go f(n - 1)
	}
	for i := 0; i < procs; i++ {
		go f(k / procs)
	}
	for i := 0; i < procs; i++ {
		<-c
	}
}

// Go: warmupScheduler (proc_test.go): get targetThreadCount Ms running.
func warmupScheduler(targetThreadCount int) {
	var wg sync.WaitGroup
	var count int32
	for i := 0; i < targetThreadCount; i++ {
		wg.Add(1)
		go func() {
			atomic.AddInt32(&count, 1)
			for atomic.LoadInt32(&count) < int32(targetThreadCount) {
				// spin until all threads started
			}
			// spin a bit more to ensure they are all running on separate CPUs.
			spinFor(time.Millisecond)
			wg.Done()
		}()
	}
	wg.Wait()
}

// CreateGoroutinesSingle. Go: BenchmarkCreateGoroutinesSingle: the main G
// spawns k Gs, each wg.Done(); the main G parks in wg.Wait.
func createGoroutinesSingle(k int) {
	var wg sync.WaitGroup
	wg.Add(k)
	for i := 0; i < k; i++ {
		go func() {
			wg.Done()
		}()
	}
	wg.Wait()
}

// PingPongHog. Go: BenchmarkPingPongHog under GOMAXPROCS(1), k ping-pongs;
// timed from the first ping to <-stop, as Go times it. Change from Go: the
// hog yields (runtime.Gosched) each iteration, since the C++ scheduler has no
// preemption and its hog must yield there; both sides then do the same work.
func pingPongHog(k int) time.Duration {
	// Create a CPU hog
	stop, done := make(chan bool), make(chan bool)
	go func() {
		for {
			select {
			case <-stop:
				done <- true
				return
			default:
			}
			runtime.Gosched()
		}
	}()

	// Ping-pong k times
	ping, pong := make(chan bool), make(chan bool)
	go func() {
		for j := 0; j < k; j++ {
			pong <- <-ping
		}
		close(stop)
		done <- true
	}()
	go func() {
		for i := 0; i < k; i++ {
			ping <- <-pong
		}
		done <- true
	}()
	t0 := time.Now()
	ping <- true // Start ping-pong
	<-stop
	d := time.Since(t0)
	<-ping // Let last ponger exit
	<-done // Make sure goroutines exit
	<-done
	<-done
	return d
}

// The delay of benchmarkWakeupParallel: its first sub-benchmark, delay 0
// (the sender still spins wakeDelay = 5µs before each send).
const (
	wakeupDelay = 0
	wakeDelay   = 5 * time.Microsecond
)

// Go: BenchmarkWakeupParallelSpinning's spin.
func spinFor(d time.Duration) {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		// do nothing
	}
}

// Go: sysNanosleep (runtime_linux_test.go): a blocking system call
// (entersyscall … exitsyscall), not time.Sleep.
func sysNanosleep(d time.Duration) {
	ts := syscall.NsecToTimespec(d.Nanoseconds())
	for {
		if err := syscall.Nanosleep(&ts, &ts); err != syscall.EINTR {
			return
		}
	}
}

// WakeupParallelSpinning / WakeupParallelSyscall. Go: benchmarkWakeupParallel
// with delay 0 and b.N = k: two Gs alternate as sender (spin delay+wakeDelay,
// send) and receiver (spin delay, receive) over unbuffered channels.
func wakeupParallel(k int, spin func(time.Duration)) {
	delay := time.Duration(wakeupDelay)
	ping, pong := make(chan struct{}), make(chan struct{})
	start := make(chan struct{})
	done := make(chan struct{})
	go func() {
		<-start
		for i := 0; i < k; i++ {
			// sender
			spin(delay + wakeDelay)
			ping <- struct{}{}
			// receiver
			spin(delay)
			<-pong
		}
		done <- struct{}{}
	}()
	go func() {
		for i := 0; i < k; i++ {
			// receiver
			spin(delay)
			<-ping
			// sender
			spin(delay + wakeDelay)
			pong <- struct{}{}
		}
		done <- struct{}{}
	}()
	start <- struct{}{}
	<-done
	<-done
}

// Matmult. Go: BenchmarkMatmult / matmult (proc_test.go), n = k, threshold 8;
// the matrices are made once (setup), outside the rounds.
type Matrix [][]float64

var matA, matB, matC Matrix

func makeMatrix(n int) Matrix {
	m := make(Matrix, n)
	for i := 0; i < n; i++ {
		m[i] = make([]float64, n)
		for j := 0; j < n; j++ {
			m[i][j] = float64(i*n + j)
		}
	}
	return m
}

func matmult(done chan<- struct{}, A, B, C Matrix, i0, i1, j0, j1, k0, k1, threshold int) {
	di := i1 - i0
	dj := j1 - j0
	dk := k1 - k0
	if di >= dj && di >= dk && di >= threshold {
		// divide in two by y axis
		mi := i0 + di/2
		done1 := make(chan struct{}, 1)
		go matmult(done1, A, B, C, i0, mi, j0, j1, k0, k1, threshold)
		matmult(nil, A, B, C, mi, i1, j0, j1, k0, k1, threshold)
		<-done1
	} else if dj >= dk && dj >= threshold {
		// divide in two by x axis
		mj := j0 + dj/2
		done1 := make(chan struct{}, 1)
		go matmult(done1, A, B, C, i0, i1, j0, mj, k0, k1, threshold)
		matmult(nil, A, B, C, i0, i1, mj, j1, k0, k1, threshold)
		<-done1
	} else if dk >= threshold {
		// divide in two by "k" axis
		// deliberately not parallel because of data races
		mk := k0 + dk/2
		matmult(nil, A, B, C, i0, i1, j0, j1, k0, mk, threshold)
		matmult(nil, A, B, C, i0, i1, j0, j1, mk, k1, threshold)
	} else {
		// the matrices are small enough, compute directly
		for i := i0; i < i1; i++ {
			for j := j0; j < j1; j++ {
				for k := k0; k < k1; k++ {
					C[i][j] += A[i][k] * B[k][j]
				}
			}
		}
	}
	if done != nil {
		done <- struct{}{}
	}
}

// ChanProdCons. Go: benchmarkChanProdCons(chanSize=10, localWork=100)
// (chan_test.go) with b.N = k items: procs producer/consumer pairs share one
// channel; producers take batches of CallsPerSched sends from N = k/1000.
func chanProdCons(procs, k, chanSize, localWork int) {
	const CallsPerSched = 1000
	N := int32(k / CallsPerSched)
	c := make(chan bool, 2*procs)
	myc := make(chan int, chanSize)
	for p := 0; p < procs; p++ {
		go func() {
			foo := 0
			for atomic.AddInt32(&N, -1) >= 0 {
				for g := 0; g < CallsPerSched; g++ {
					for i := 0; i < localWork; i++ {
						foo *= 2
						foo /= 2
					}
					myc <- 1
				}
			}
			myc <- 0
			c <- foo == 42
		}()
		go func() {
			foo := 0
			for {
				v := <-myc
				if v == 0 {
					break
				}
				for i := 0; i < localWork; i++ {
					foo *= 2
					foo /= 2
				}
			}
			c <- foo == 42
		}()
	}
	for p := 0; p < procs; p++ {
		<-c
		<-c
	}
}

// skynet (github.com/atemerev/skynet, Go version): a 10-ary tree of Gs with k
// leaves; leaf i sends i, each inner node sums its children over an
// unbuffered channel. For k a power of 10 it is the original; otherwise a
// node of size s has min(10, s) children of sizes as even as possible, so
// there are exactly k leaves. Checked: the sum is k(k-1)/2.
func skynet(c chan<- int64, num, size int64) {
	if size == 1 {
		c <- num
		return
	}
	div := int64(10)
	if size < div {
		div = size
	}
	rc := make(chan int64)
	for i := int64(0); i < div; i++ {
		lo, hi := i*size/div, (i+1)*size/div
		go skynet(rc, num+lo, hi-lo)
	}
	var sum int64
	for i := int64(0); i < div; i++ {
		sum += <-rc
	}
	c <- sum
}

func skynetRound(k int) {
	c := make(chan int64)
	go skynet(c, 0, int64(k))
	if got, want := <-c, int64(k)*int64(k-1)/2; got != want {
		die("skynet: sum %d, want %d", got, want)
	}
}

// GoroutineParallelism2. Go: testGoroutineParallelism2(load=true,
// netpoll=false) with P = procs and k tries (Go: P = 4, N = 10): P Gs spawned
// two levels deep must all run at once, passing a counter around by spinning
// (a lost wakeup hangs it). GC off during the round, as in Go (#10958).
func goroutineParallelism2(P, k int) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for try := 0; try < k; try++ {
		// load: create P goroutines and wait until they all run.
		{
			done := make(chan bool)
			x := uint32(0)
			for p := 0; p < P; p++ {
				go func() {
					if atomic.AddUint32(&x, 1) == uint32(P) {
						done <- true
						return
					}
					for atomic.LoadUint32(&x) != uint32(P) {
					}
				}()
			}
			<-done
		}
		done := make(chan bool)
		x := uint32(0)
		// Spawn P goroutines in a nested fashion (P/2 parents, 2 children
		// each; Go's test has P = 4, even; an odd P rounds down).
		for p := 0; p < P/2; p++ {
			go func(p int) {
				for p2 := 0; p2 < 2; p2++ {
					go func(p2 int) {
						for i := 0; i < 3; i++ {
							expected := uint32(P/2*2*i + p*2 + p2)
							for atomic.LoadUint32(&x) != expected {
							}
							atomic.StoreUint32(&x, expected+1)
						}
						done <- true
					}(p2)
				}
			}(p)
		}
		for p := 0; p < P/2*2; p++ {
			<-done
		}
	}
}

// chaos: seeded random work (seed+round). procs root Gs start; until k task Gs
// have been spawned in all, each task G does 8 random steps: spawn a child
// task (while the budget lasts), runtime.Gosched, a blocking syscall
// (nanosleep 1µs, one in 64 2.5 ms), or park/ready (make a channel, spawn a helper G that sends
// on it, receive). Meanwhile the main G changes GOMAXPROCS to a random value
// in [1, procs] every 64 yields (procresize), and restores procs at the end.
func chaos(procs, k int, seed int64, round int) {
	var wg sync.WaitGroup
	left := int64(k - procs) // spawn budget after the roots
	var task func(id int64)
	task = func(id int64) {
		defer wg.Done()
		r := rand.New(rand.NewSource(seed*1000003 + int64(round)*7919 + id))
		for step := 0; step < 8; step++ {
			switch r.Intn(4) {
			case 0:
				if n := atomic.AddInt64(&left, -1); n >= 0 {
					wg.Add(1)
					go task(int64(k) - n)
				}
			case 1:
				runtime.Gosched()
			case 2: // one in 64 outlasts two sysmon ticks: sysmon retakes its P
				d := time.Microsecond
				if r.Intn(64) == 0 {
					d = 2500 * time.Microsecond
				}
				sysNanosleep(d)
			case 3:
				ch := make(chan struct{})
				go func() { ch <- struct{}{} }()
				<-ch
			}
		}
		// Spend what is left of the budget so that every round spawns k tasks.
		if n := atomic.AddInt64(&left, -1); n >= 0 {
			wg.Add(1)
			go task(int64(k) - n)
		}
	}
	roots := procs
	if roots > k {
		roots = k
		left = 0
	}
	wg.Add(roots)
	for i := 0; i < roots; i++ {
		go task(int64(i))
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	r := rand.New(rand.NewSource(seed + int64(round)))
	for i := 1; ; i++ {
		select {
		case <-finished:
			runtime.GOMAXPROCS(procs)
			return
		default:
		}
		if i%64 == 0 {
			runtime.GOMAXPROCS(1 + r.Intn(procs))
		}
		runtime.Gosched()
	}
}
