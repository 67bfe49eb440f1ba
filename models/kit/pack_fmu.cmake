# pack_fmu.cmake -- run with cmake -P: describe one FMU variant and zip it.
# Inputs: DESCRIBER, BINARY, IDENTIFIER, STAGE, FMU, CONFIG (;-list of key=value),
# RESOURCES (;-list of files copied into resources/ before the describer runs).
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
file(MAKE_DIRECTORY ${STAGE}/binaries/x86_64-linux)
file(COPY_FILE ${BINARY} ${STAGE}/binaries/x86_64-linux/${IDENTIFIER}.so)
file(GLOB entries RELATIVE ${STAGE} ${STAGE}/*)
list(SORT entries)
file(REMOVE ${FMU})
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cf ${FMU} --format=zip --mtime=1980-01-01 -- ${entries}
                WORKING_DIRECTORY ${STAGE} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "zipping ${FMU} failed (${rc})")
endif()
