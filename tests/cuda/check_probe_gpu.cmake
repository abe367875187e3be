# gpuplan-probe-gpu's documented exit codes, run as `cmake -DPROGRAM=... -DWORK_DIR=... -P`.
# Without a GPU or driver: exit 3, exactly one "gpuplan-probe-gpu: no CUDA device: ..." line on
# stderr, nothing on stdout, no --out file. With a GPU: a quick L2 probe exits 0 with the JSON.
# Everywhere: --help exits 0; bad arguments exit 2 with one line naming the flag.
if(NOT WORK_DIR)
  set(WORK_DIR "${CMAKE_CURRENT_BINARY_DIR}")
endif()
set(out_file "${WORK_DIR}/probe-gpu-test.json")
file(REMOVE "${out_file}")

function(run_probe)
  execute_process(COMMAND "${PROGRAM}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(fail what)
  message(FATAL_ERROR "${what}: exit ${rc}\nstdout: ${out}\nstderr: ${err}")
endfunction()

# --help: usage and the exit codes on stdout, exit 0 (no GPU needed).
run_probe(--help)
if(NOT rc EQUAL 0 OR NOT out MATCHES "usage: gpuplan-probe-gpu" OR NOT out MATCHES "exit codes" OR
   NOT err STREQUAL "")
  fail("--help")
endif()

# Bad arguments: exit 2 and one stderr line that names the problem, before any CUDA call.
foreach(case "--bogus|--bogus" "--only;hbm,nope|nope" "--device;x|--device" "--out|--out" "extra|extra")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts -1 expect)
  list(REMOVE_AT parts -1)
  run_probe(${parts})
  if(NOT rc EQUAL 2 OR NOT err MATCHES "^gpuplan-probe-gpu: [^\n]*${expect}[^\n]*\n$" OR NOT out STREQUAL "")
    fail("bad arguments '${parts}'")
  endif()
endforeach()

# The run itself: either a GPU is here, or the clean "no device" path.
run_probe(--quick --only l2 --out "${out_file}")
if(rc EQUAL 0)
  file(READ "${out_file}" json)
  if(NOT json MATCHES "\"schema\": \"gpuplan.gpu-probe/1\"" OR NOT json MATCHES "\"id\": \"l2_read\"")
    fail("GPU present, but the JSON lacks the schema or the l2_read metric")
  endif()
  message(STATUS "GPU present: quick L2 probe ran")
elseif(rc EQUAL 3)
  if(NOT err MATCHES "^gpuplan-probe-gpu: no CUDA device: [^\n]+\n$" OR NOT out STREQUAL "")
    fail("no GPU, but not exactly one 'no CUDA device' line on stderr")
  endif()
  if(EXISTS "${out_file}")
    fail("no GPU, but --out was written")
  endif()
  # Without --out the JSON would go to stdout: it must stay empty too.
  run_probe()
  if(NOT rc EQUAL 3 OR NOT out STREQUAL "" OR NOT err MATCHES "^gpuplan-probe-gpu: no CUDA device: [^\n]+\n$")
    fail("no GPU, default run")
  endif()
  string(STRIP "${err}" line)
  message(STATUS "no GPU here, clean message: ${line}")
else()
  fail("unexpected exit code")
endif()
