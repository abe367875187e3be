# gpuplan_embed(<out.cpp> FILES <file>...) — compiles data files into the program as byte
# arrays (Tracy habit: assets become C++ at build time, identical natively and in wasm).
# Regenerated whenever an input changes. The generator is embed_files.cmake (cmake -P), so
# no host tool has to be built when cross-compiling to wasm.
set(GPUPLAN_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed_files.cmake")

function(gpuplan_embed out)
  cmake_parse_arguments(ARG "SOURCES_ELSEWHERE" "COMPACT" "FILES" ${ARGN})
  set(extra "")
  if(ARG_SOURCES_ELSEWHERE)
    set(extra "-DSOURCES_ELSEWHERE=1")
  endif()
  if(ARG_COMPACT)
    list(APPEND extra "-DCOMPACT=${ARG_COMPACT}")
  endif()
  string(REPLACE ";" "|" inputs "${ARG_FILES}")
  list(LENGTH ARG_FILES count)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} "-DOUT=${out}" "-DINPUTS=${inputs}" ${extra} -P "${GPUPLAN_EMBED_SCRIPT}"
    DEPENDS ${ARG_FILES} ${ARG_COMPACT} "${GPUPLAN_EMBED_SCRIPT}"
    COMMENT "Embedding ${count} data file(s) into ${out}"
    VERBATIM)
endfunction()

# gpuplan_compact_catalog(<out.bin> [SOURCES_ELSEWHERE] FILES <file>...) — the catalog files
# loaded with every check and written in the compact form (core/tools/compact_catalog.cpp, run
# natively or under node in the wasm build); gpuplan_embed(... COMPACT <out.bin>) embeds it.
function(gpuplan_compact_catalog out)
  cmake_parse_arguments(ARG "SOURCES_ELSEWHERE" "" "FILES" ${ARGN})
  set(flag "")
  if(ARG_SOURCES_ELSEWHERE)
    set(flag "--sources-elsewhere")
  endif()
  if(EMSCRIPTEN)
    find_program(GPUPLAN_NODE node REQUIRED)
    set(run ${GPUPLAN_NODE} --no-experimental-fetch "$<TARGET_FILE:gpuplan_compact_catalog>")
  else()
    set(run "$<TARGET_FILE:gpuplan_compact_catalog>")
  endif()
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${run} "${out}" ${flag} ${ARG_FILES}
    DEPENDS gpuplan_compact_catalog ${ARG_FILES}
    COMMENT "Writing the catalog in its compact form: ${out}"
    VERBATIM)
endfunction()
