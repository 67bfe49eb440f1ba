# tests/bench/smoke.cmake -- every Google Benchmark suite runs (N = 10 only,
# a minimal time): a broken fixture fails here, not in the next sweep. No
# timing is judged. Inputs: BENCH_DIR (build/bench), SUITES (;-list).
cmake_minimum_required(VERSION 3.25)
foreach(suite IN LISTS SUITES)
  execute_process(COMMAND ${BENCH_DIR}/lsdae_bench_${suite} "--benchmark_filter=/N:10(/|$)"
                          --benchmark_min_time=0.001
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR out MATCHES "ERROR OCCURRED" OR NOT out MATCHES "BM_")
    message(FATAL_ERROR "lsdae_bench_${suite} failed (${rc}):\n${out}${err}")
  endif()
endforeach()
message(STATUS "benchmark suites ran: ${SUITES}")
