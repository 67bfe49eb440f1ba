# run_island_sweep.cmake -- run with cmake -P: `lsdae sweep` of a PowerGrid FMU over a MATPOWER
# change table, then the summary must hold each of PATTERNS (;-list of regular expressions).
# Inputs: LSDAE, FMU, CONTAB, CASE, SUMMARY, ARGS (;-list of extra sweep arguments), PATTERNS.
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${LSDAE} sweep ${FMU} --contingencies ${CONTAB} --case ${CASE} --summary ${SUMMARY}
                        --overwrite --no-progress ${ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "lsdae sweep ${FMU} ${ARGS}: exit ${rc}\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the sweep failed (exit ${rc}): ${err}")
endif()
file(READ ${SUMMARY} summary)
message(STATUS "summary:\n${summary}")
foreach(pattern IN LISTS PATTERNS)
  if(NOT summary MATCHES "${pattern}")
    message(FATAL_ERROR "the summary has no line matching \"${pattern}\"")
  endif()
endforeach()
