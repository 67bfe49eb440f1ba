# tests/runtime/sweep/mpi_scheduler_test.cmake -- one scenario of the MPI
# scheduler's test program (mpi_scheduler_program.cpp) in a fresh folder.
#   -DPROGRAM=<mpi_scheduler_program> -DFOLDER=<scratch folder> -DMODE=check|death
#   -DRANKS=<n> (0: run the program without mpirun) -DMPIEXEC=<mpirun>
# check: one run (resume from tasks 0, 5, 6) must pass its own checks.
# death: rank 1 kills itself: mpirun must report failure, the rows written
#        before stay complete, and a resumed run finishes every task exactly once.
file(REMOVE_RECURSE ${FOLDER})
file(MAKE_DIRECTORY ${FOLDER})
if(RANKS EQUAL 0)
  set(launch)
else()
  set(launch ${MPIEXEC} --oversubscribe --allow-run-as-root -np ${RANKS})
endif()

function(run_program mode out_result)
  execute_process(COMMAND ${launch} ${PROGRAM} ${FOLDER} ${mode}
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  message(STATUS "${mode} (${RANKS} ranks): exit ${result}\n${out}${err}")
  set(${out_result} ${result} PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "check")
  run_program(check result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "the scheduler's checks failed with ${RANKS} ranks (exit ${result})")
  endif()
elseif(MODE STREQUAL "death")
  run_program(die result)
  if(result EQUAL 0 OR result MATCHES "timeout")
    message(FATAL_ERROR "a rank died, yet the job reported success or hung (${result})")
  endif()
  file(STRINGS ${FOLDER}/rows.txt kept)
  list(LENGTH kept kept_count)
  message(STATUS "rows kept after the rank died: ${kept_count}")
  run_program(check result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "resuming after the rank died did not finish every task exactly once (exit ${result})")
  endif()
else()
  message(FATAL_ERROR "MODE must be check or death, not ${MODE}")
endif()
