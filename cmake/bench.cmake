# bench.cmake — the benchmark family (issue 6 item 5): Google Benchmark
# micro-operations on the core port (bench/micro.cpp → bench_micro) and the
# gate checks of the benchmark programs. ci/bench runs the benchmarks and
# writes docs/bench.md; the checks here only see that they run (no timing
# assertions). Included by checkers.cmake; configured when RUNQCHECK_CHECKERS
# names `bench` (the native preset does).
include_guard(GLOBAL)
if(NOT "bench" IN_LIST RUNQCHECK_CHECKERS OR NOT EXISTS "${RUNQCHECK_ROOT}/bench/micro.cpp")
  return()
endif()

find_package(benchmark REQUIRED)  # Debian: libbenchmark-dev
add_executable(bench_micro "${RUNQCHECK_ROOT}/bench/micro.cpp")
target_link_libraries(bench_micro PRIVATE runqcheck::core benchmark::benchmark Threads::Threads)
set_target_properties(bench_micro PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")

if(CMAKE_CROSSCOMPILING)
  return()
endif()

# Smoke: every micro benchmark a few iterations (10 ms each); a benchmark
# whose own check fails reports "ERROR OCCURRED" (Google Benchmark still exits 0).
add_test(NAME bench_micro_smoke
  COMMAND bench_micro --benchmark_min_time=0.01 "--benchmark_filter=^BM_")
set_tests_properties(bench_micro_smoke PROPERTIES LABELS "gate;bench;selftest" TIMEOUT 120
  FAIL_REGULAR_EXPRESSION "ERROR OCCURRED")

# The Go peer of the stress workloads (stress/go): go vet, a build, every
# workload once at a tiny size, its bench: line parsed (nightly). Skipped (77) without
# Go (ci/find_go.sh: RUNQCHECK_GO, else go1.27). Shares the Go build cache of
# the differential tests.
add_test(NAME bench_go_smoke
  COMMAND sh "${RUNQCHECK_ROOT}/stress/go/smoke.sh" "${CMAKE_BINARY_DIR}/bench_go"
          "${CMAKE_BINARY_DIR}/diff_go/gocache")
set_tests_properties(bench_go_smoke PROPERTIES LABELS "nightly;bench;selftest" TIMEOUT 600
  SKIP_RETURN_CODE 77 RESOURCE_LOCK go_build_cache)
if(RUNQCHECK_GO)
  set_property(TEST bench_go_smoke APPEND PROPERTY ENVIRONMENT "RUNQCHECK_GO=${RUNQCHECK_GO}")
endif()
