# tests/bench/optimized_vectors.cmake -- the optimised N_Vector operations
# (runtime/simulation/ida/optimized_nvector.h, which lsdae's integrator and the
# native solver use) must change timings only: tl_native with --nvector
# optimized must write byte-identical results to its run with SUNDIALS' own
# (--nvector serial, Debian's build). Inputs: NATIVE, FORM, N, WORK.
cmake_minimum_required(VERSION 3.25)
file(MAKE_DIRECTORY ${WORK})
foreach(nvector serial optimized)
  execute_process(COMMAND ${NATIVE} --form ${FORM} -N ${N} --nvector ${nvector} -o ${WORK}/native_${nvector}.csv
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tl_native --nvector ${nvector} failed (${rc}): ${err}")
  endif()
endforeach()
foreach(who native)
  file(SHA256 ${WORK}/${who}_serial.csv a)
  file(SHA256 ${WORK}/${who}_optimized.csv b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${who}: the optimised vector operations changed the results "
                        "(${WORK}/${who}_serial.csv vs ${who}_optimized.csv) → they must repeat nvector_serial's "
                        "arithmetic element for element")
  endif()
endforeach()
message(STATUS "${FORM} form, N = ${N}: identical results with the optimised vector operations")
