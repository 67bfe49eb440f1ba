# same_sweep_rows.cmake -- run with cmake -P: the summaries A and B of two
# sweeps (lsdae sweep --summary) hold the same rows, in any order, but for
# the column wall_time_s (a measurement). Fails naming the first row of A
# that B lacks, or the counts when they differ.
#
# Fields are read as RFC 4180 writes them (runtime/sweep/csv_line.h): a field
# in quotes may hold commas (a message "maxdev(a, b) > 3 at t = 1.2", a metric
# "max:maxdev(gen[*].delta, gen[*].H)") and doubled quotes; a semicolon (a
# CMake list separator) is compared as the text <semicolon>. (Before, fields
# were split at every comma: a message with a comma shifted the columns.)
cmake_minimum_required(VERSION 3.25)

# The fields of one CSV record (its semicolons already <semicolon>), each as
# written (quotes kept), into `out` as a CMake list. A field holding a line
# break (RFC 4180 allows it in quotes) is not read: no summary writes one.
function(csv_fields line out)
  set(rest "${line}")
  set(fields "")
  while(TRUE)
    set(field "")
    if(NOT rest MATCHES "^,")
      string(REGEX MATCH "^(\"([^\"]|\"\")*\"|[^,\"]+)" field "${rest}")
    endif()
    string(LENGTH "${field}" n)
    string(SUBSTRING "${rest}" ${n} -1 rest)
    list(APPEND fields "${field}")
    if(rest STREQUAL "")
      break()
    endif()
    string(SUBSTRING "${rest}" 0 1 separator)
    if(NOT separator STREQUAL ",")
      message(FATAL_ERROR "malformed CSV record (a quote inside an unquoted field?):\n  ${line}")
    endif()
    string(SUBSTRING "${rest}" 1 -1 rest)
    if(rest STREQUAL "")
      list(APPEND fields "")  # a record ending with a comma: its last field is empty
      break()
    endif()
  endwhile()
  set(${out} "${fields}" PARENT_SCOPE)
endfunction()

function(rows_of file out)
  # Lines by hand: file(STRINGS) would split a line at its semicolons.
  file(READ ${file} text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REGEX REPLACE "\r?\n$" "" text "${text}")
  string(REGEX REPLACE "\r?\n" ";" lines "${text}")
  list(POP_FRONT lines header)
  csv_fields("${header}" columns)
  list(FIND columns wall_time_s wall)
  set(rows "")
  foreach(line IN LISTS lines)
    csv_fields("${line}" fields)
    if(wall GREATER_EQUAL 0)
      list(REMOVE_AT fields ${wall})
    endif()
    string(REPLACE ";" "," kept "${fields}")
    list(APPEND rows "${kept}")
  endforeach()
  list(SORT rows)
  set(${out} "${rows}" PARENT_SCOPE)
endfunction()

rows_of(${A} a)
rows_of(${B} b)
list(LENGTH a na)
list(LENGTH b nb)
if(NOT na EQUAL nb)
  message(FATAL_ERROR "${A}: ${na} rows, ${B}: ${nb} rows")
endif()
if(na EQUAL 0)
  message(FATAL_ERROR "${A}: no rows: the sweep wrote no scenario")
endif()
foreach(row IN LISTS a)
  list(FIND b "${row}" at)
  if(at LESS 0)
    message(FATAL_ERROR "${A} has the row\n  ${row}\nthat ${B} lacks:\n  ${b}")
  endif()
endforeach()
message(STATUS "${na} rows alike")
