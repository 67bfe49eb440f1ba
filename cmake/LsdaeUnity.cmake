# Unity build of the library and the FMU kit (issue 29: the first run's compile).
#
# The targets scripts/run.sh builds (liblsdae.so's layers, the CLI's commands, the kit
# under every model FMU) compile in batches: CMake writes one source per batch that
# #includes UNITY_BUILD_BATCH_SIZE of the target's files, so the standard, SUNDIALS,
# Eigen and pugixml headers they share are parsed and their inline functions are compiled
# once per batch instead of once per file. Measured (docs/install.md, "First run"): the
# user CPU of a clean build of run.sh's targets. The code is the same (results and
# counters unchanged); what a batch changes is that file-local names (anonymous
# namespaces, static functions) of its files share one translation unit, so two files of
# one target may not define the same file-local name with the same signature (name them
# for what they are, or share one definition through a header), and a file-local name must
# not hide a function of an enclosing namespace that a later file of the batch calls
# (sweep/metrics.cpp's trim_blanks, once trim, hid lsdae::trim from scenario_sources.cpp). The tests, the
# benchmarks, the Python module and the model FMUs compile file by file as before.
#
# -DLSDAE_UNITY_BUILD=OFF compiles every file alone (a developer editing one file
# recompiles one file, not its batch).
option(LSDAE_UNITY_BUILD "Compile the library and the kit in batches (unity build)" ON)
set(LSDAE_UNITY_BATCH_SIZE 8 CACHE STRING "Sources per batch of the unity build")

function(lsdae_unity_build)
  if(NOT LSDAE_UNITY_BUILD)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    if(TARGET ${target})
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${LSDAE_UNITY_BATCH_SIZE})
    endif()
  endforeach()
endfunction()

# The models' scenario sources in liblsdae.so (two and three files) compile file by file.
set(lsdae_unity_targets lsdae_structure lsdae_kernels lsdae_compose lsdae_kit lsdae_kit_fmu)
foreach(layer common import fmu system results simulation supervise run sweep capi cli)
  list(APPEND lsdae_unity_targets lsdae_${layer})
endforeach()
lsdae_unity_build(${lsdae_unity_targets})

# Files that compile alone: GCC's -Wsubobject-linkage (an error with -Werror) reports a
# class of external linkage with members of a file-local type once the file is #included
# by the batch (it is then no longer the main file): run_sweep.cpp's ScenarioWorker::Impl
# holds its anonymous namespace's Pool and IgnoreSigpipe.
set_source_files_properties(${PROJECT_SOURCE_DIR}/runtime/sweep/run_sweep.cpp
  DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/sweep PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
