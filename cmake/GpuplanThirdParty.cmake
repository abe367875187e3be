# Dear ImGui 1.86 (both targets) and SDL2 2.26.5 (wasm only), built from the Debian source
# packages that scripts/setup.sh fetches, pinned by SHA-256, into GPUPLAN_THIRD_PARTY_DIR.
# Natively SDL2 comes from libsdl2-dev. Third-party code builds without our warning flags.
set(IMGUI_DIR "${GPUPLAN_THIRD_PARTY_DIR}/imgui")
set(SDL2_SRC_DIR "${GPUPLAN_THIRD_PARTY_DIR}/SDL2")
if(NOT EXISTS "${IMGUI_DIR}/imgui.cpp")
  message(FATAL_ERROR "Dear ImGui sources not found in ${IMGUI_DIR}: run scripts/setup.sh first")
endif()

# --- SDL2 -----------------------------------------------------------------------------------
if(EMSCRIPTEN)
  if(NOT EXISTS "${SDL2_SRC_DIR}/src/SDL.c")
    message(FATAL_ERROR "SDL2 sources not found in ${SDL2_SRC_DIR}: run scripts/setup.sh first")
  endif()
  # Compile SDL's source list directly with its shipped SDL_config_emscripten.h, as
  # Emscripten's own port does (tools/ports/sdl2.py): ~25 s instead of ~3.5 min for SDL's
  # own CMake configure. Single-threaded (generic thread backend). cmake/sdl2/SDL_config_page.h
  # turns off what the page never initialises (audio, joystick, sensor, haptic, 2D renderer,
  # power, shared objects, filesystem paths): those folders compile only their dummy drivers.
  set(sdl "${SDL2_SRC_DIR}/src")
  file(GLOB sdl_sources
    ${sdl}/*.c ${sdl}/atomic/*.c ${sdl}/audio/*.c ${sdl}/cpuinfo/*.c ${sdl}/events/*.c ${sdl}/file/*.c
    ${sdl}/filesystem/dummy/*.c ${sdl}/haptic/*.c ${sdl}/haptic/dummy/*.c ${sdl}/joystick/*.c
    ${sdl}/joystick/dummy/*.c ${sdl}/loadso/dummy/*.c ${sdl}/locale/*.c ${sdl}/locale/emscripten/*.c
    ${sdl}/misc/*.c ${sdl}/misc/emscripten/*.c ${sdl}/power/*.c ${sdl}/render/*.c ${sdl}/sensor/*.c
    ${sdl}/sensor/dummy/*.c ${sdl}/stdlib/*.c ${sdl}/thread/*.c ${sdl}/thread/generic/*.c ${sdl}/timer/*.c
    ${sdl}/timer/unix/*.c ${sdl}/video/*.c ${sdl}/video/emscripten/*.c ${sdl}/video/yuv2rgb/*.c)
  add_library(gpuplan_sdl2 STATIC ${sdl_sources})
  target_include_directories(gpuplan_sdl2 SYSTEM PUBLIC "${SDL2_SRC_DIR}/include")
  target_compile_options(gpuplan_sdl2 PRIVATE -w ${GPUPLAN_WASM_LTO}
                                              "SHELL:-include ${PROJECT_SOURCE_DIR}/cmake/sdl2/SDL_config_page.h")
  set(GPUPLAN_SDL2_TARGET gpuplan_sdl2)
  message(STATUS "gpuplan: SDL2 = ${SDL2_SRC_DIR} (built from source for wasm, threads off)")
else()
  find_package(SDL2 2.26 REQUIRED CONFIG)
  find_package(OpenGL REQUIRED)
  set(GPUPLAN_SDL2_TARGET SDL2::SDL2)
  message(STATUS "gpuplan: SDL2 = system ${SDL2_VERSION}")
endif()

# --- Dear ImGui + SDL2 / OpenGL3 backends ----------------------------------------------------
add_library(gpuplan_imgui STATIC
  ${IMGUI_DIR}/imgui.cpp ${IMGUI_DIR}/imgui_draw.cpp ${IMGUI_DIR}/imgui_tables.cpp
  ${IMGUI_DIR}/imgui_widgets.cpp
  ${IMGUI_DIR}/backends/imgui_impl_sdl.cpp ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(gpuplan_imgui SYSTEM PUBLIC "${IMGUI_DIR}" "${IMGUI_DIR}/backends")
target_link_libraries(gpuplan_imgui PUBLIC ${GPUPLAN_SDL2_TARGET})
target_compile_definitions(gpuplan_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
target_compile_options(gpuplan_imgui PRIVATE -w)
if(EMSCRIPTEN)
  # WebGL2: without this define ImGui 1.86's OpenGL3 backend falls back to WebGL1 (GLSL 100).
  target_compile_definitions(gpuplan_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
  # The page saves no .ini and no log file (io.IniFilename = nullptr): without ImGui's file
  # functions fopen/fread/fwrite and their stdio stay out of the wasm.
  target_compile_definitions(gpuplan_imgui PUBLIC IMGUI_DISABLE_FILE_FUNCTIONS)
  # No metrics window or debug tools (the item picker, the stack tool): the page shows neither,
  # yet ImGui's NewFrame reaches their code, so the linker could not drop it.
  target_compile_definitions(gpuplan_imgui PUBLIC IMGUI_DISABLE_METRICS_WINDOW)
  target_compile_options(gpuplan_imgui PRIVATE -fno-exceptions ${GPUPLAN_WASM_LTO})
else()
  target_link_libraries(gpuplan_imgui PUBLIC OpenGL::GL ${CMAKE_DL_LIBS})
endif()
message(STATUS "gpuplan: Dear ImGui = ${IMGUI_DIR}")
