# tests/bench/optimized_vectors.cmake -- the optimised N_Vector operations
# (bench/native/optimized_nvector.h) must change timings only: tl_native with
# --nvector optimized and lsdae under LD_PRELOAD=liblsdae_nvector_preload.so
# must write byte-identical results to their runs with SUNDIALS' own.
# Inputs: LSDAE, NATIVE, PRELOAD, FMU, FORM, N, WORK.
cmake_minimum_required(VERSION 3.25)
file(MAKE_DIRECTORY ${WORK})
foreach(nvector serial optimized)
  execute_process(COMMAND ${NATIVE} --form ${FORM} -N ${N} --nvector ${nvector} -o ${WORK}/native_${nvector}.csv
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tl_native --nvector ${nvector} failed (${rc}): ${err}")
  endif()
endforeach()
execute_process(COMMAND ${LSDAE} simulate ${FMU} -o ${WORK}/lsdae_serial.csv --no-progress --all
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lsdae simulate failed (${rc}): ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_PRELOAD=${PRELOAD}
                        ${LSDAE} simulate ${FMU} -o ${WORK}/lsdae_optimized.csv --no-progress --all
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lsdae simulate with LD_PRELOAD=${PRELOAD} failed (${rc}): ${err}")
endif()
foreach(who native lsdae)
  file(SHA256 ${WORK}/${who}_serial.csv a)
  file(SHA256 ${WORK}/${who}_optimized.csv b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${who}: the optimised vector operations changed the results "
                        "(${WORK}/${who}_serial.csv vs ${who}_optimized.csv) → they must repeat nvector_serial's "
                        "arithmetic element for element")
  endif()
endforeach()
message(STATUS "${FORM} form, N = ${N}: identical results with the optimised vector operations")
