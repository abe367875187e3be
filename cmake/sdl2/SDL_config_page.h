/* Force-included (-include) into every SDL2 source of the wasm build, before SDL's own
 * SDL_config.h: the shipped SDL_config_emscripten.h, minus the subsystems the page never
 * initialises. The page calls SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) and uses SDL for the
 * canvas, its GL context, input events and the clipboard; audio, joysticks, sensors, the 2D
 * renderer, power, shared objects and the preferences path are never called, and without this
 * SDL_Init's and SDL_PumpEvents' references keep them (~100 KB of wasm) alive.
 * ImGui's SDL backend still links SDL_GameController*: with SDL_JOYSTICK_DISABLED those are
 * SDL's own "no joystick" answers (joystick/dummy), which is what a page without a gamepad
 * reports anyway (ImGuiConfigFlags_NavEnableGamepad is off). */
#ifndef GPUPLAN_SDL_CONFIG_PAGE_H
#define GPUPLAN_SDL_CONFIG_PAGE_H

#include "SDL_config_emscripten.h"

#undef SDL_AUDIO_DRIVER_DISK
#undef SDL_AUDIO_DRIVER_DUMMY
#undef SDL_AUDIO_DRIVER_EMSCRIPTEN
#define SDL_AUDIO_DISABLED 1

#undef SDL_JOYSTICK_EMSCRIPTEN
#define SDL_JOYSTICK_DISABLED 1

#undef SDL_SENSOR_DUMMY
#define SDL_SENSOR_DISABLED 1

#undef SDL_VIDEO_RENDER_OGL_ES2
#define SDL_RENDER_DISABLED 1

#undef SDL_POWER_EMSCRIPTEN
#define SDL_POWER_DISABLED 1

#undef SDL_LOADSO_DLOPEN
#define SDL_LOADSO_DISABLED 1

#undef SDL_FILESYSTEM_EMSCRIPTEN
#define SDL_FILESYSTEM_DISABLED 1

#endif
