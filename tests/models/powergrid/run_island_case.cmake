# run_island_case.cmake -- run with cmake -P: simulate a PowerGrid FMU whose trip cuts buses off
# from every machine (models/powergrid/islands.h) with `lsdae simulate`, then check the last row.
# Inputs: LSDAE, PYTHON, FMU, WORK (scratch folder), ARGS (;-list of simulate arguments), LAST (;-list
# COLUMN=VALUE~TOLERANCE: |last row's value - VALUE| <= TOLERANCE).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${LSDAE} simulate ${FMU} ${ARGS} --no-progress -o ${WORK}/actual.csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "lsdae simulate ${FMU} ${ARGS}: exit ${rc}\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run failed (exit ${rc}): ${err}")
endif()
file(STRINGS ${WORK}/actual.csv lines)
list(GET lines 0 header)
list(GET lines -1 last_row)
string(REPLACE "," ";" names "${header}")
string(REPLACE "," ";" values "${last_row}")
foreach(check IN LISTS LAST)
  string(REGEX MATCH "^([^=]+)=([^~]+)~(.+)$" _ "${check}")
  set(column ${CMAKE_MATCH_1})
  set(expected ${CMAKE_MATCH_2})
  set(tolerance ${CMAKE_MATCH_3})
  list(FIND names "${column}" at)
  if(at LESS 0)
    message(FATAL_ERROR "no column ${column} in ${WORK}/actual.csv (${header})")
  endif()
  list(GET values ${at} value)
  # |value - expected| <= tolerance in floating point (CMake's math() is integer only): Python.
  execute_process(COMMAND ${PYTHON} -c "import sys; v, e, t = map(float, sys.argv[1:4]); sys.exit(0 if abs(v - e) <= t else 1)"
                          ${value} ${expected} ${tolerance} RESULT_VARIABLE bad)
  if(bad)
    message(FATAL_ERROR "last row: ${column} = ${value}, expected ${expected} within ${tolerance}")
  endif()
  message(STATUS "last row: ${column} = ${value} (${expected} within ${tolerance})")
endforeach()
