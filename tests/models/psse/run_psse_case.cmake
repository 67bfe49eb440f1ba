# run_psse_case.cmake -- run with cmake -P: simulate a PsseGrid FMU with
# `lsdae simulate` and compare it with PSS/E's trajectory (psse_compare.cpp).
# Inputs: LSDAE, COMPARE, WORK (scratch folder), FMU, ARGS (;-list, extra
# simulate arguments), REFERENCE (PSS/E's CSV), CHECKS (;-list for
# psse_compare), MIN_ROWS, FLAT (a tolerance: the run must stay at its
# first row), LAST (;-list COLUMN=VALUE of the last row), STATS (;-list member.path=value checked in the
# run's --stats JSON).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${LSDAE} simulate ${FMU} ${ARGS} --no-progress -o ${WORK}/actual.csv --stats ${WORK}/stats.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "lsdae simulate ${FMU} ${ARGS}: exit ${rc}\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run failed (exit ${rc}): ${err}")
endif()
foreach(check IN LISTS STATS)
  string(REPLACE "=" ";" pair "${check}")
  list(GET pair 0 path)
  list(GET pair 1 expected)
  string(REPLACE "." ";" members "${path}")
  file(READ ${WORK}/stats.json json)
  string(JSON value ERROR_VARIABLE json_error GET "${json}" ${members})
  if(json_error OR NOT value STREQUAL expected)
    message(FATAL_ERROR "statistics: ${path} is \"${value}\" ${json_error}, expected ${expected}")
  endif()
endforeach()
foreach(last IN LISTS LAST)
  string(REPLACE "=" ";" pair "${last}")
  list(GET pair 0 column)
  list(GET pair 1 expected)
  execute_process(COMMAND ${COMPARE} --last ${WORK}/actual.csv ${column} ${expected}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${out}${err}")
  endif()
endforeach()
if(FLAT)
  execute_process(COMMAND ${COMPARE} --flat ${WORK}/actual.csv ${FLAT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the undisturbed run moves (psse_compare exit ${rc}):\n${out}${err}")
  endif()
endif()
if(NOT REFERENCE)
  return()
endif()
execute_process(COMMAND ${COMPARE} ${WORK}/actual.csv ${REFERENCE} --min-rows ${MIN_ROWS} ${CHECKS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the result differs from PSS/E's ${REFERENCE} (psse_compare exit ${rc}):\n${out}${err}")
endif()
