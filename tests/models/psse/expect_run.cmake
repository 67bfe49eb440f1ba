# expect_run.cmake -- run with cmake -P: run COMMAND (;-list) and check its
# exit status (EXIT) and that its output (stdout and stderr together)
# matches every regular expression of PATTERNS (;-list).
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${COMMAND}: exit ${rc}\n${out}${err}")
if(NOT rc EQUAL EXIT)
  message(FATAL_ERROR "expected exit ${EXIT}, got ${rc}")
endif()
foreach(pattern IN LISTS PATTERNS)
  if(NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "the output does not match \"${pattern}\"")
  endif()
endforeach()
