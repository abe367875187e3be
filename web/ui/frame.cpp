#include "frame.h"

#include <cmath>
#include <string>

#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include "app.h"

namespace gpuplan::ui {

void InitImGui(SDL_Window* window, SDL_GLContext gl, const char* glsl_version) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 0;
  style.FrameRounding = 3;
  style.CellPadding = ImVec2(6, 3);
  ImGui_ImplSDL2_InitForOpenGL(window, gl);
  ImGui_ImplOpenGL3_Init(glsl_version);
  SetPixelRatio(1);
}

// ImGui's font is ProggyClean, a pixel font drawn for 13 px: on a display with 2 device pixels
// per CSS pixel it is rasterised at 26 px and drawn at half scale, so each glyph pixel lands on
// whole device pixels (crisp, not a blurred 13 px texture stretched twice).
void SetPixelRatio(float ratio) {
  static float current = 0;
  const float r = ratio >= 1.5f ? std::round(ratio) : 1.0f;
  if (r == current) return;
  current = r;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.SizePixels = 13.0f * r;
  io.Fonts->AddFontDefault(&config);
  io.FontGlobalScale = 1.0f / r;
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

bool PumpEvents(SDL_Window* window, App& app) {
  SDL_Event event;
  bool running = true;
  while (SDL_PollEvent(&event)) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    if (event.type == SDL_DROPFILE && event.drop.file) {
      // SDL_LoadFile, not std::ifstream: the panels are also the page's, where iostreams would
      // link libc++'s locale machinery (~40 KB of wasm). An unreadable file imports as empty
      // text, which ImportText reports like any malformed file.
      size_t size = 0;
      void* data = SDL_LoadFile(event.drop.file, &size);
      const std::string text = data ? std::string(static_cast<const char*>(data), size) : std::string();
      SDL_free(data);
      const std::string path = event.drop.file;
      app.ImportText(text, path.substr(path.find_last_of("/\\") + 1));
      SDL_free(event.drop.file);
    }
    if (event.type == SDL_QUIT) running = false;
    if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE &&
        event.window.windowID == SDL_GetWindowID(window))
      running = false;
  }
  return running;
}

void RenderFrame(SDL_Window* window, App& app, void (*clear)(int width, int height, const float* rgba)) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  app.Frame();
  ImGui::Render();
  int w = 0, h = 0;
  SDL_GL_GetDrawableSize(window, &w, &h);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];  // light or dark, as the app's theme
  const float rgba[4] = {bg.x, bg.y, bg.z, 1.0f};
  clear(w, h, rgba);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  SDL_GL_SwapWindow(window);
}

void ShutdownImGui() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
}

}  // namespace gpuplan::ui
