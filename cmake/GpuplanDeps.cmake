# Header-only dependencies from Debian: nlohmann_json and Catch2 (v2).
# Natively they come through find_package. Under Emscripten the toolchain only searches its
# sysroot, and /usr/include must not go on em++'s include path whole (it holds glibc's
# headers), so the two packages' own folders are staged into the build tree instead.
if(EMSCRIPTEN)
  set(host_include /usr/include)
  set(staged "${CMAKE_BINARY_DIR}/host-headers")
  foreach(dir nlohmann catch2)
    if(NOT EXISTS "${host_include}/${dir}")
      message(FATAL_ERROR "${host_include}/${dir} not found: run scripts/setup.sh (nlohmann-json3-dev, catch2)")
    endif()
    file(COPY "${host_include}/${dir}" DESTINATION "${staged}")
  endforeach()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${staged}"
                                                                  INTERFACE_INCLUDE_DIRECTORIES "${staged}")
  add_library(Catch2::Catch2 INTERFACE IMPORTED)
  set_target_properties(Catch2::Catch2 PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${staged}"
                                                  INTERFACE_INCLUDE_DIRECTORIES "${staged}")
  list(APPEND CMAKE_MODULE_PATH /usr/lib/cmake/Catch2)  # Catch.cmake: catch_discover_tests
  message(STATUS "gpuplan: nlohmann_json, Catch2 = headers staged from ${host_include}")
else()
  find_package(nlohmann_json 3.11 REQUIRED)
  if(GPUPLAN_BUILD_TESTS)
    find_package(Catch2 2 REQUIRED)
  endif()
endif()
