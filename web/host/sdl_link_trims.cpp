// Link-time trims of SDL2 for the page (web/CMakeLists.txt links them with -Wl,--wrap=<name>).
// Each replaces one SDL entry point whose only caller in the page is SDL itself, and whose real
// body keeps a large part of SDL or of Emscripten's JavaScript alive for nothing.
//
//   eglGetProcAddress           Emscripten's version looks a name up among every GL and WebGL
//                               function, so all ~270 emscripten_gl* JavaScript functions ship
//                               (~50 KB of index.js). SDL asks it only for the few GL functions
//                               that SDL_GL_ExtensionSupported, SDL_GL_GetAttribute and
//                               SDL_GL_SwapWindow use; ImGui's OpenGL3 backend calls GLES3
//                               directly (IMGUI_IMPL_OPENGL_ES3) and loads nothing.
//   SDL_ConvertSurfaceFormat    called only by the Emscripten video driver's CreateCursor, for
//                               colour cursors made from a surface; it pulls in all of SDL's
//                               software blitters (~200 KB of wasm). ImGui uses system cursors
//                               (SDL_CreateSystemCursor, CSS cursor names), never surfaces.
//   SDL_RLESurface              run-length encoding of surfaces for SDL's software blitters,
//   SDL_UnRLESurface            which the page does not link (above). The wrap never encodes
//                               (SDL's documented fallback: the surface stays as it is), so
//                               no surface is ever encoded and decoding has nothing to do;
//                               SDL_FreeSurface of the window framebuffer kept ~15 KB of
//                               RLE blitting alive through SDL_UnRLESurface.
//   SDL_GameControllerOpen      ImGui's SDL backend opens gamepad 0 only with
//                               ImGuiConfigFlags_NavEnableGamepad (off), and with SDL's
//                               joystick subsystem off (cmake/sdl2/SDL_config_page.h) SDL
//                               answers NULL too; the real one keeps the controller mapping
//                               parser alive.
//   Emscripten_CreateWindowFramebuffer  SDL's software window surface (SDL_GetWindowSurface,
//   Emscripten_UpdateWindowFramebuffer  drawn with a 2D canvas and putImageData): the page
//                               draws with WebGL 2 only and never asks for a window surface;
//                               the video driver's function table keeps the real ones (~3 KB
//                               of wasm and their JavaScript) alive. SDL's own answer for a
//                               driver without them: unsupported.
#include <GLES3/gl3.h>
#include <SDL.h>

#include <cstring>

extern "C" {

void* __wrap_eglGetProcAddress(const char* name);
SDL_Surface* __wrap_SDL_ConvertSurfaceFormat(SDL_Surface* src, Uint32 pixel_format, Uint32 flags);
int __wrap_SDL_RLESurface(SDL_Surface* surface);
SDL_GameController* __wrap_SDL_GameControllerOpen(int joystick_index);
void __wrap_SDL_UnRLESurface(SDL_Surface* surface, int recode);
// The first parameter is SDL's internal SDL_VideoDevice*: a pointer, as the function table
// calls it.
int __wrap_Emscripten_CreateWindowFramebuffer(void* device, SDL_Window* window, Uint32* format, void** pixels,
                                              int* pitch);
int __wrap_Emscripten_UpdateWindowFramebuffer(void* device, SDL_Window* window, const SDL_Rect* rects, int numrects);

void* __wrap_eglGetProcAddress(const char* name) {
  struct Entry {
    const char* name;
    void* function;
  };
  static const Entry kEntries[] = {
      {"glGetString", reinterpret_cast<void*>(&glGetString)},
      {"glGetStringi", reinterpret_cast<void*>(&glGetStringi)},
      {"glGetIntegerv", reinterpret_cast<void*>(&glGetIntegerv)},
      {"glGetError", reinterpret_cast<void*>(&glGetError)},
      {"glBindFramebuffer", reinterpret_cast<void*>(&glBindFramebuffer)},
      {"glGetFramebufferAttachmentParameteriv", reinterpret_cast<void*>(&glGetFramebufferAttachmentParameteriv)},
  };
  for (const Entry& e : kEntries)
    if (name && std::strcmp(e.name, name) == 0) return e.function;
  return nullptr;  // what Emscripten answers for a name it does not know
}

SDL_Surface* __wrap_SDL_ConvertSurfaceFormat(SDL_Surface*, Uint32, Uint32) {
  SDL_SetError("SDL_ConvertSurfaceFormat is not linked into the gpuplan page (web/host/sdl_link_trims.cpp)");
  return nullptr;
}

int __wrap_SDL_RLESurface(SDL_Surface*) { return -1; }

void __wrap_SDL_UnRLESurface(SDL_Surface*, int) {}

SDL_GameController* __wrap_SDL_GameControllerOpen(int joystick_index) {
  SDL_SetError("Couldn't find mapping for device (%d)", joystick_index);  // what SDL says here
  return nullptr;
}

int __wrap_Emscripten_CreateWindowFramebuffer(void*, SDL_Window*, Uint32*, void**, int*) { return SDL_Unsupported(); }

int __wrap_Emscripten_UpdateWindowFramebuffer(void*, SDL_Window*, const SDL_Rect*, int) { return SDL_Unsupported(); }

}  // extern "C"
