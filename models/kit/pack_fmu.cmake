# pack_fmu.cmake -- run with cmake -P: describe one FMU variant and zip it.
# Inputs: DESCRIBER, BINARY, IDENTIFIER, STAGE, FMU, CONFIG (;-list of key=value),
# RESOURCES (;-list of files copied into resources/ before the describer runs),
# STRIP (optional: the strip program; the packed binary loses its debug
# sections but keeps its symbols, so profiles still name the FMU's functions
# while the archive is a tenth of the size and unpacks that much faster).
# STAGE and FMU may be given relative to the working folder (the commands in docs/ do):
# file(GLOB RELATIVE) below needs an absolute folder, or it lists nothing.
get_filename_component(STAGE "${STAGE}" ABSOLUTE)
get_filename_component(FMU "${FMU}" ABSOLUTE)
file(REMOVE_RECURSE ${STAGE})
file(MAKE_DIRECTORY ${STAGE}/resources)
foreach(resource IN LISTS RESOURCES)
  get_filename_component(resource_name ${resource} NAME)
  file(COPY_FILE ${resource} ${STAGE}/resources/${resource_name})
endforeach()
execute_process(COMMAND ${DESCRIBER} --identifier ${IDENTIFIER} --out ${STAGE} ${CONFIG}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "describer for ${IDENTIFIER} failed (${rc}) with config ${CONFIG}")
endif()
# The platform folder: FMI 3.0 names it by architecture and OS, FMI 2.0 "linux64".
set(platform x86_64-linux)
list(FIND CONFIG "fmi=2" fmi2_at)  # (script mode: no IN_LIST without a policy setting)
if(NOT fmi2_at EQUAL -1)
  set(platform linux64)
endif()
file(MAKE_DIRECTORY ${STAGE}/binaries/${platform})
file(COPY_FILE ${BINARY} ${STAGE}/binaries/${platform}/${IDENTIFIER}.so)
if(STRIP)
  execute_process(COMMAND ${STRIP} --strip-debug ${STAGE}/binaries/${platform}/${IDENTIFIER}.so RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${STRIP} --strip-debug ${IDENTIFIER}.so failed (${rc})")
  endif()
endif()
file(GLOB entries RELATIVE ${STAGE} ${STAGE}/*)
list(SORT entries)
file(REMOVE ${FMU})
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cf ${FMU} --format=zip --mtime=1980-01-01 -- ${entries}
                WORKING_DIRECTORY ${STAGE} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "zipping ${FMU} failed (${rc})")
endif()
