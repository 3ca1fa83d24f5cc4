// runqcheck micro benchmarks, test side: one Benchmark per loop of
// runqcheck_bench_export_test.go; names match bench/micro.cpp's (BM_X ↔
// BenchmarkRunqcheckX). Not part of Go: added with `go test -overlay` by
// ci/bench; run under GOMAXPROCS=1.

package runtime_test

import (
	"runtime"
	"testing"
)

func BenchmarkRunqcheckPutGet(b *testing.B)     { runtime.RunqcheckBenchPutGet(b.N) }
func BenchmarkRunqcheckPutNextGet(b *testing.B) { runtime.RunqcheckBenchPutNextGet(b.N) }
func BenchmarkRunqcheckSteal128(b *testing.B)   { runtime.RunqcheckBenchSteal128(b.N) }
func BenchmarkRunqcheckPutSlow(b *testing.B)    { runtime.RunqcheckBenchPutSlow(b.N) }
func BenchmarkRunqcheckGlobBatch(b *testing.B)  { runtime.RunqcheckBenchGlobBatch(b.N) }
func BenchmarkRunqcheckDrain(b *testing.B)      { runtime.RunqcheckBenchDrain(b.N) }
