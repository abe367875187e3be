# Script mode: cmake -DGPUPLAN=<the built CLI> -DOUT_DIR=<dir> -P cli_docs.cmake
# The man page and the shell completions, printed by the CLI from its own definition
# (native/cli/docs.h): gpuplan.1, gpuplan.bash, _gpuplan (zsh), gpuplan.fish.
file(MAKE_DIRECTORY "${OUT_DIR}")
foreach(pair "man;gpuplan.1" "completion;bash;gpuplan.bash" "completion;zsh;_gpuplan" "completion;fish;gpuplan.fish")
  list(POP_BACK pair file)
  execute_process(COMMAND "${GPUPLAN}" ${pair} OUTPUT_FILE "${OUT_DIR}/${file}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gpuplan ${pair} failed (${rc})")
  endif()
endforeach()
