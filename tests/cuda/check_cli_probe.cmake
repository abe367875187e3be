# `gpuplan probe gpu` on a machine without a GPU: it runs the probe built beside it, which says
# so in one line and exits 3 (the documented code), with nothing on stdout.
execute_process(COMMAND ${CLI} probe gpu --quick RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "gpuplan probe gpu: exit ${rc}, expected 3 (no CUDA device)\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT err MATCHES "^gpuplan-probe-gpu: no CUDA device: [^\n]+\n$")
  message(FATAL_ERROR "gpuplan probe gpu: expected one 'no CUDA device' line from the probe, got: ${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "gpuplan probe gpu: stdout should be empty, got: ${out}")
endif()
