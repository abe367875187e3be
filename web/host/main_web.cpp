// web/host/main_web.cpp — the Emscripten host: SDL2 window on the page's canvas, WebGL2,
// the scenario in the URL hash, and C functions the page's JavaScript (and the browser
// tests) call to read the state back. The panels are in web/ui; nothing here computes.
#include <GLES3/gl3.h>
#include <SDL.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cstdlib>
#include <string>

#include "app.h"
#include "frame.h"

namespace {

struct Host {
  SDL_Window* window = nullptr;
  gpuplan::ui::App* app = nullptr;
  long frames = 0;
  int css_w = 0, css_h = 0;
  std::string scratch;  // backs the strings returned to JavaScript
};
Host g_host;

// clang-format off
EM_JS(char*, JsReadHash, (), {
  var s = location.hash;
  var n = lengthBytesUTF8(s) + 1; var p = _malloc(n); stringToUTF8(s, p, n); return p;
});
EM_JS(void, JsWriteHash, (const char* hash), {
  var h = '#' + UTF8ToString(hash);
  if (location.hash !== h) history.replaceState(null, "", h);
  Module.gpuplanLastHash = location.hash;
});
EM_JS(int, JsHashChanged, (), {
  return (Module.gpuplanLastHash !== undefined && location.hash !== Module.gpuplanLastHash) ? 1 : 0;
});
EM_JS(void, JsMarkHashRead, (), { Module.gpuplanLastHash = location.hash; });
EM_JS(int, JsContainerWidth, (), { var c = Module.canvas.parentElement; return c ? c.clientWidth : window.innerWidth; });
EM_JS(int, JsContainerHeight, (), { var c = Module.canvas.parentElement; return c ? c.clientHeight : window.innerHeight; });
EM_JS(void, JsReady, (), { if (Module.gpuplanReady) Module.gpuplanReady(); });
// The threaded CPU probe (web/probe): only where the page is cross-origin isolated and the
// shell offers it; it answers later through gpuplan_import_text.
EM_JS(int, JsStartThreadedProbe, (int quick), {
  if (!self.crossOriginIsolated || typeof Module.gpuplanThreadedProbe !== 'function') return 0;
  Module.gpuplanThreadedProbe(quick);
  return navigator.hardwareConcurrency || 1;
});
// clang-format on

void LoadHash() {
  char* hash = JsReadHash();
  g_host.app->LoadState(hash);
  std::free(hash);
  JsMarkHashRead();
}

void ClearGl(int width, int height) {
  glViewport(0, 0, width, height);
  glClearColor(0.08f, 0.08f, 0.10f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

void MainLoop() {
  // Follow the container's size (the canvas fills an iframe or a page section).
  int w = JsContainerWidth(), h = JsContainerHeight();
  if (w > 0 && h > 0 && (w != g_host.css_w || h != g_host.css_h)) {
    SDL_SetWindowSize(g_host.window, w, h);
    g_host.css_w = w;
    g_host.css_h = h;
  }
  if (JsHashChanged()) LoadHash();  // the user edited the URL or followed a link
  gpuplan::ui::PumpEvents(g_host.window, *g_host.app);
  gpuplan::ui::RenderFrame(g_host.window, *g_host.app, ClearGl);
  if (g_host.app->ConsumeStateChanged()) JsWriteHash(g_host.app->StateHash().c_str());
  if (++g_host.frames == 2) JsReady();
}

}  // namespace

// Read-back functions for the page and the end-to-end tests. The returned pointer stays
// valid until the next call of any of them.
extern "C" {
EMSCRIPTEN_KEEPALIVE const char* gpuplan_report_json() {
  g_host.scratch = g_host.app->ReportJson();
  return g_host.scratch.c_str();
}
// What `gpuplan <which> --format json` prints: which = "fit", "speed" or "compare".
EMSCRIPTEN_KEEPALIVE const char* gpuplan_result_json(const char* which) {
  g_host.scratch = g_host.app->ResultJson(which ? which : "");
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpuplan_state_hash() {
  g_host.scratch = g_host.app->StateHash();
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpuplan_widget_rects() {
  g_host.scratch = g_host.app->WidgetRectsJson();
  return g_host.scratch.c_str();
}
// The page shell calls this with the text of a file dropped on the page (or pasted).
EMSCRIPTEN_KEEPALIVE const char* gpuplan_import_text(const char* text, const char* name) {
  g_host.scratch = g_host.app->ImportText(text ? text : "", name ? name : "");
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpuplan_ui_state() {
  g_host.scratch = g_host.app->UiStateJson();
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpuplan_field_errors() {
  g_host.scratch = g_host.app->FieldErrorsJson();
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpuplan_notices() {
  std::string out = "[";
  for (const std::string& n : g_host.app->Notices()) {
    if (out.size() > 1) out += ",";
    out += "\"";
    for (char c : n) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    out += "\"";
  }
  g_host.scratch = out + "]";
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE long gpuplan_frame_count() { return g_host.frames; }
}

int main() {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    emscripten_log(EM_LOG_ERROR, "gpuplan: SDL_Init failed: %s", SDL_GetError());
    return 1;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);  // WebGL2
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  int w = JsContainerWidth(), h = JsContainerHeight();
  g_host.window = SDL_CreateWindow("gpuplan", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w > 0 ? w : 1280,
                                   h > 0 ? h : 800, SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  SDL_GLContext gl = g_host.window ? SDL_GL_CreateContext(g_host.window) : nullptr;
  if (!gl) {
    emscripten_log(EM_LOG_ERROR, "gpuplan: no WebGL2 context: %s", SDL_GetError());
    return 1;
  }
  SDL_GL_MakeCurrent(g_host.window, gl);
  gpuplan::ui::InitImGui(g_host.window, gl, "#version 300 es");

  static gpuplan::ui::App app;
  g_host.app = &app;
  app.SetThreadedProbe([](bool quick) { return JsStartThreadedProbe(quick ? 1 : 0); });
  LoadHash();
  JsWriteHash(app.StateHash().c_str());  // a complete, versioned link from the first frame
  emscripten_set_main_loop(MainLoop, 0, true);
  return 0;
}
