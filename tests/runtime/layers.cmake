# tests/runtime/layers.cmake -- the layer rule of runtime/ (docs/architecture.md), read from the
# code's own #include lines against the table the build declares (runtime/CMakeLists.txt,
# lsdae_layer(): the layers bottom first and the layers each one uses):
#   - a file of runtime/<layer>/ includes internal headers only of its own layer and of the
#     layers it uses, and public headers (lsdae/*.h) only of those; a public header belongs to
#     the layer whose include/lsdae/ holds it;
#   - a public header (runtime/<layer>/include/lsdae/) includes public headers only;
#   - a model's scenario source (models/powergrid/scenarios/) includes public headers only;
#   - no public header is in two layers, and none lies outside a layer.
# Usage: cmake -DROOT=<source dir> -DTABLE=<build>/runtime/layers_table.cmake -P layers.cmake
cmake_minimum_required(VERSION 3.25)
include(${TABLE})
set(problems "")
set(runtime ${ROOT}/runtime)

# The owner of each public header: the layer whose include/lsdae/ holds it.
set(owner_lsdae/version.h common)  # generated into the build folder (cmake/version.h.in)
set(public_headers "")
foreach(layer IN LISTS layers)
  file(GLOB headers RELATIVE ${runtime}/${layer}/include ${runtime}/${layer}/include/lsdae/*.h)
  foreach(header IN LISTS headers)
    if(DEFINED owner_${header})
      string(APPEND problems "${header}: in both ${owner_${header}}/include/ and ${layer}/include/ -> keep one\n")
    endif()
    set(owner_${header} ${layer})
    list(APPEND public_headers ${runtime}/${layer}/include/${header})
  endforeach()
endforeach()
file(GLOB_RECURSE stray RELATIVE ${ROOT} ${runtime}/*/lsdae/*.h)
foreach(header IN LISTS stray)
  if(NOT header MATCHES "^runtime/([a-z_]+)/include/lsdae/[^/]+$" OR NOT CMAKE_MATCH_1 IN_LIST layers)
    string(APPEND problems "${header}: a public header outside the layers' include/lsdae/ -> move it to the layer that implements it\n")
  endif()
endforeach()

# check_includes(<file> <layer> <the layers it uses> <public only: TRUE/FALSE> [<own folder>])
function(check_includes file layer allowed public_only)
  set(own_folder "${ARGN}")
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  file(RELATIVE_PATH shown ${ROOT} ${file})
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" included "${line}")
    set(target "")
    if(included MATCHES "^lsdae/")
      if(NOT DEFINED owner_${included})
        continue()  # reported above (a header without an owner), or not ours
      endif()
      set(target ${owner_${included}})
    elseif(public_only)
      if(own_folder STREQUAL "" OR NOT included MATCHES "^${own_folder}/")
        string(APPEND problems "${shown}: includes \"${included}\" -> only public headers (lsdae/*.h) here\n")
      endif()
      continue()
    elseif(included MATCHES "^(runtime/)?([a-z_]+)/")
      set(target ${CMAKE_MATCH_2})
      if(NOT target IN_LIST layers)
        continue()  # structure/, kernels/, a model's folder: outside runtime/
      endif()
    else()
      continue()
    endif()
    if(NOT target STREQUAL layer AND NOT target IN_LIST allowed)
      string(APPEND problems "${shown}: includes \"${included}\" of the layer ${target}, which ${layer} does not use "
                             "(it uses: ${allowed}) -> move the code, or list the layer in runtime/${layer}/CMakeLists.txt if it is below\n")
    endif()
  endforeach()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

foreach(layer IN LISTS layers)
  file(GLOB_RECURSE files ${runtime}/${layer}/*.h ${runtime}/${layer}/*.cpp)
  foreach(file IN LISTS files)
    check_includes(${file} ${layer} "${uses_${layer}}" FALSE)
  endforeach()
endforeach()
foreach(header IN LISTS public_headers)
  string(REGEX REPLACE "^.*/runtime/([a-z_]+)/include/.*$" "\\1" layer "${header}")
  check_includes(${header} ${layer} "${uses_${layer}}" TRUE)
endforeach()
file(GLOB scenario_files ${ROOT}/models/powergrid/scenarios/*.h ${ROOT}/models/powergrid/scenarios/*.cpp)
foreach(file IN LISTS scenario_files)
  check_includes(${file} capi "${layers}" TRUE powergrid/scenarios)
endforeach()

if(problems)
  message(FATAL_ERROR "the layers of runtime/ are broken:\n${problems}")
endif()
list(LENGTH layers count)
message(STATUS "runtime/: ${count} layers, every include points down")
