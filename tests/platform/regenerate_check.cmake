# Runs the command recorded in PREFIX.xml (the zone's generated-by property) into WORK and
# checks that it writes PREFIX.xml, .hosts and .topology.json byte for byte: the shipped files
# are exactly what their recorded description generates.
file(READ ${PREFIX}.xml xml)
if(NOT xml MATCHES "<prop id=\"generated-by\" value=\"topocoll-platform ([^\"]*)\"/>")
  message(FATAL_ERROR "${PREFIX}.xml records no generated-by command")
endif()
separate_arguments(arguments UNIX_COMMAND "${CMAKE_MATCH_1}")
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${TOOL} ${arguments} --output-dir ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the recorded command failed (${rc}): ${err}")
endif()
get_filename_component(name ${PREFIX} NAME)
foreach(extension IN ITEMS .xml .hosts .topology.json)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${PREFIX}${extension} ${WORK}/${name}${extension}
                  RESULT_VARIABLE differs)
  if(NOT differs EQUAL 0)
    message(FATAL_ERROR "${PREFIX}${extension} differs from what its recorded command generates "
                        "(${WORK}/${name}${extension}); regenerate it with scripts/make-platforms.sh")
  endif()
endforeach()
