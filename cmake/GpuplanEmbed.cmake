# gpuplan_embed(<out.cpp> FILES <file>...) — compiles data files into the program as byte
# arrays (Tracy habit: assets become C++ at build time, identical natively and in wasm).
# Regenerated whenever an input changes. The generator is embed_files.cmake (cmake -P), so
# no host tool has to be built when cross-compiling to wasm.
set(GPUPLAN_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed_files.cmake")

function(gpuplan_embed out)
  cmake_parse_arguments(ARG "SOURCES_ELSEWHERE" "" "FILES" ${ARGN})
  set(extra "")
  if(ARG_SOURCES_ELSEWHERE)
    set(extra "-DSOURCES_ELSEWHERE=1")
  endif()
  string(REPLACE ";" "|" inputs "${ARG_FILES}")
  list(LENGTH ARG_FILES count)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} "-DOUT=${out}" "-DINPUTS=${inputs}" ${extra} -P "${GPUPLAN_EMBED_SCRIPT}"
    DEPENDS ${ARG_FILES} "${GPUPLAN_EMBED_SCRIPT}"
    COMMENT "Embedding ${count} data file(s) into ${out}"
    VERBATIM)
endfunction()
