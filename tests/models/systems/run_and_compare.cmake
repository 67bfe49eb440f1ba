# run_and_compare.cmake -- run with cmake -P: simulate something with lsdae
# and compare the result with a reference, or check that it fails as it
# should. Used by tests/models/systems (component FMUs alone) and
# tests/systems (the system acceptance cases).
#
# Inputs (lists are ;-separated):
#   LSDAE, COMPARE (the compare_results program), WORK (a scratch folder)
#   REFERENCE_RUN   optional: <fmu> <args...>: `lsdae simulate` writes
#                   WORK/reference.csv (the monolithic model's result)
#   INPUT_RUN       optional: <fmu> <args...>: `lsdae simulate` writes
#                   WORK/input_raw.csv; its header is renamed by
#                   INPUT_RENAME (old=new...) into WORK/input.csv, given to
#                   RUN as --input (a component driven by the monolithic
#                   model's trajectory); INPUT_NEGATE: negate its one data
#                   column (a flow seen from the other side)
#   INPUT_FILE      optional: an input table given to RUN as --input
#   RUN             <fmu or ssp> <args...>: `lsdae simulate`, -o WORK/actual.csv
#   EXPECTED        the table to compare with (default WORK/reference.csv)
#   MAP (none: no comparison), TOLERANCE, FLOOR, MIN_ROWS, SKIP_EVENTS   for compare_results
#                   (its header says what they mean)
#   STATS           optional: <json member path>=<value>...: RUN writes
#                   --stats WORK/stats.json and each member must have that
#                   value, e.g. model.structural_index=2
#   EXPECT_EXIT     when set: RUN must exit with this code, and its stderr
#                   must match every regular expression of EXPECT_MESSAGES;
#                   nothing is compared
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(simulate what out)
  list(POP_FRONT what target)
  execute_process(COMMAND ${LSDAE} simulate ${target} ${what} --no-progress -o ${out}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  set(rc ${rc} PARENT_SCOPE)
  set(stderr "${stderr}" PARENT_SCOPE)
  message(STATUS "lsdae simulate ${target} ${what}: exit ${rc}\n${stderr}")
endfunction()

if(REFERENCE_RUN)
  simulate("${REFERENCE_RUN}" ${WORK}/reference.csv)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the reference run failed (exit ${rc}): ${stderr}")
  endif()
endif()

set(input "")
if(INPUT_RUN)
  simulate("${INPUT_RUN}" ${WORK}/input_raw.csv)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the run that makes the input table failed (exit ${rc}): ${stderr}")
  endif()
  file(READ ${WORK}/input_raw.csv text)
  string(FIND "${text}" "\n" eol)
  string(SUBSTRING "${text}" 0 ${eol} header)
  string(SUBSTRING "${text}" ${eol} -1 body)
  foreach(rename IN LISTS INPUT_RENAME)
    string(REPLACE "=" ";" pair "${rename}")
    list(GET pair 0 old)
    list(GET pair 1 new)
    string(REPLACE ",${old}," ",${new}," header ",${header},")
    string(REGEX REPLACE "^,(.*),$" "\\1" header "${header}")
  endforeach()
  if(INPUT_NEGATE)  # one data column: "t,v" -> "t,-v"
    string(REPLACE ",-" ",@" body "${body}")
    string(REPLACE "," ",-" body "${body}")
    string(REPLACE ",-@" "," body "${body}")
  endif()
  file(WRITE ${WORK}/input.csv "${header}${body}")
  set(input --input ${WORK}/input.csv)
elseif(INPUT_FILE)
  set(input --input ${INPUT_FILE})
endif()

set(stats "")
if(STATS)
  set(stats --stats ${WORK}/stats.json)
endif()
simulate("${RUN};${input};${stats}" ${WORK}/actual.csv)
if(DEFINED EXPECT_EXIT)
  if(NOT rc EQUAL EXPECT_EXIT)
    message(FATAL_ERROR "expected exit code ${EXPECT_EXIT}, got ${rc}: ${stderr}")
  endif()
  foreach(pattern IN LISTS EXPECT_MESSAGES)
    if(NOT stderr MATCHES "${pattern}")
      message(FATAL_ERROR "the message does not match \"${pattern}\":\n${stderr}")
    endif()
  endforeach()
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run failed (exit ${rc}): ${stderr}")
endif()
foreach(check IN LISTS STATS)
  string(REPLACE "=" ";" pair "${check}")
  list(GET pair 0 path)
  list(GET pair 1 expected_value)
  string(REPLACE "." ";" members "${path}")
  file(READ ${WORK}/stats.json json)
  string(JSON value ERROR_VARIABLE json_error GET "${json}" ${members})
  if(json_error OR NOT value STREQUAL expected_value)
    message(FATAL_ERROR "statistics: ${path} is \"${value}\" ${json_error}, expected ${expected_value}")
  endif()
endforeach()
if(NOT MAP)  # nothing to compare: the run and its statistics were the test
  return()
endif()
if(NOT EXPECTED)
  set(EXPECTED ${WORK}/reference.csv)
endif()
set(options --tolerance ${TOLERANCE})
if(FLOOR)
  list(APPEND options --floor ${FLOOR})
endif()
if(MIN_ROWS)
  list(APPEND options --min-rows ${MIN_ROWS})
endif()
if(SKIP_EVENTS)
  list(APPEND options --skip-events)
endif()
execute_process(COMMAND ${COMPARE} ${WORK}/actual.csv ${EXPECTED} ${options} ${MAP}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the result differs from ${EXPECTED} (compare_results exit ${rc}):\n${out}${err}")
endif()
