# tests/runtime/layers.cmake -- the layer rule of runtime/ (docs/architecture.md), read from the
# code's own #include lines against the table the build declares (runtime/CMakeLists.txt,
# lsdae_layer(): the layers bottom first and the layers each one uses):
#   - a file of runtime/<layer>/ includes internal headers only of its own layer and of the
#     layers it uses, and public headers (lsdae/*.h) only of those; a public header belongs to
#     the layer whose include/lsdae/ holds it;
#   - a public header (runtime/<layer>/include/lsdae/) includes public headers only;
#   - a model's scenario source (models/powergrid/scenarios/) includes public headers only;
#   - no public header is in two layers, and none lies outside a layer;
#   - runtime/ names no model and not the composition root: no file under runtime/ includes a
#     header of models/ or of compose/, and no runtime/ CMakeLists.txt puts models/ on an include
#     path. What the models plug in (a scenario source) is installed by compose/ (the one folder
#     above both: compose/model_plugins.h), and compose/ includes models' headers only through
#     that list.
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

# runtime/ -> models/ or compose/: an arrow that runs back up. The models' folders are read from
# models/ itself, so a new model cannot slip past the rule.
file(GLOB model_entries RELATIVE ${ROOT}/models ${ROOT}/models/*)
set(model_folders "")
foreach(entry IN LISTS model_entries)
  if(IS_DIRECTORY ${ROOT}/models/${entry})
    list(APPEND model_folders ${entry})
  endif()
endforeach()
file(GLOB_RECURSE runtime_files ${runtime}/*.h ${runtime}/*.hpp ${runtime}/*.cpp ${runtime}/*.c)
foreach(file IN LISTS runtime_files)
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  file(RELATIVE_PATH shown ${ROOT} ${file})
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">].*" "\\1" included "${line}")
    if(included MATCHES "^(models|compose)/" OR
       (included MATCHES "^([a-z_0-9]+)/" AND CMAKE_MATCH_1 IN_LIST model_folders))
      string(APPEND problems "${shown}: includes \"${included}\", a header of models/ or of the composition root "
                             "(compose/), which are above runtime/ -> let compose/ install it (compose/model_plugins.h) "
                             "and reach it through an interface of runtime/ (lsdae/sweep.h's registry)\n")
    endif()
  endforeach()
endforeach()
file(GLOB_RECURSE runtime_cmake_files ${runtime}/CMakeLists.txt ${runtime}/*.cmake)
foreach(file IN LISTS runtime_cmake_files)
  file(STRINGS ${file} lines REGEX "(PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR)}/(models|compose)([/ )]|$)")
  file(RELATIVE_PATH shown ${ROOT} ${file})
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^[ \t]*#")
      string(APPEND problems "${shown}: names models/ or compose/ (\"${line}\"), which are above runtime/ "
                             "-> build it in compose/CMakeLists.txt\n")
    endif()
  endforeach()
endforeach()
# compose/ includes a model's header only in its plug-in list.
file(GLOB compose_files ${ROOT}/compose/*.h ${ROOT}/compose/*.cpp)
foreach(file IN LISTS compose_files)
  get_filename_component(name ${file} NAME)
  if(name MATCHES "^model_plugins\\.")
    continue()
  endif()
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" included "${line}")
    if(included MATCHES "^([a-z_0-9]+)/" AND CMAKE_MATCH_1 IN_LIST model_folders)
      string(APPEND problems "compose/${name}: includes \"${included}\" -> a model's plug-in is installed "
                             "in compose/model_plugins.cpp only\n")
    endif()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "the layers of runtime/ are broken:\n${problems}")
endif()
list(LENGTH layers count)
message(STATUS "runtime/: ${count} layers, every include points down; runtime/ names no model")
