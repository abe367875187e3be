#include "frame.h"

#include <cmath>
#include <cstring>
#include <iterator>
#include <string>

#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include "app.h"
#include "touch.h"

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

// ProggyClean covers Latin-1 only; the reports use a few marks beyond it (the speed report's
// "Decode step — 12 ms", "→" and "≈" in formulas, "5%–20%" bands), which would print as "?".
// Those are drawn here as 7 x 13 pixel glyphs in the font's own grid (baseline on row 10, dash
// height row 7, cap height row 3: read from ProggyClean's '-', '.', 'T'), added to the atlas as
// custom glyphs and scaled with the font.
namespace {

struct PixelGlyph {
  ImWchar codepoint;
  int first_row;           // of the 13-row cell
  const char* rows[8];     // '#' = ink, 7 columns each
};

constexpr PixelGlyph kExtraGlyphs[] = {
    {0x2014, 7, {"#######"}},                                                       // — em dash
    {0x2013, 7, {"######."}},                                                       // – en dash
    {0x2212, 7, {".#####."}},                                                       // − minus
    {0x2026, 9, {"#..#..#", "#..#..#"}},                                            // … ellipsis
    {0x2192, 5, {"....#..", ".....#.", "#######", ".....#.", "....#.."}},           // → arrow
    {0x2248, 5, {".##...#", "#..###.", ".......", ".##...#", "#..###."}},           // ≈ almost equal
    {0x2264, 4, {"....##.", "..##...", "##.....", "..##...", "....##.", ".......", "######."}},  // ≤
    {0x2265, 4, {".##....", "...##..", ".....##", "...##..", ".##....", ".......", ".######"}},  // ≥
    {0x221D, 5, {".##..##", "#..##..", "#..#...", "#..##..", ".##..##"}},           // ∝ proportional to
    {0x1D40, 1, {"#####..", "..#....", "..#....", "..#...."}},                      // ᵀ superscript T
    {0x03A8, 3, {"#..#..#", "#..#..#", "#..#..#", ".#.#.#.", "..###..", "...#...", "...#...", "...#..."}},  // Ψ
};

void AddExtraGlyphs(ImFontAtlas* atlas, ImFont* font, int scale) {
  int ids[std::size(kExtraGlyphs)];
  for (size_t i = 0; i < std::size(kExtraGlyphs); ++i)
    ids[i] = atlas->AddCustomRectFontGlyph(font, kExtraGlyphs[i].codepoint, 7 * scale, 13 * scale,
                                           static_cast<float>(7 * scale));
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  atlas->GetTexDataAsRGBA32(&pixels, &width, &height);  // builds the atlas; the backend uploads this buffer
  for (size_t i = 0; i < std::size(kExtraGlyphs); ++i) {
    const ImFontAtlasCustomRect* rect = atlas->GetCustomRectByIndex(ids[i]);
    const PixelGlyph& g = kExtraGlyphs[i];
    for (int row = 0; row < 8 && g.rows[row]; ++row)
      for (int col = 0; col < 7 && g.rows[row][col]; ++col) {
        if (g.rows[row][col] != '#') continue;
        for (int dy = 0; dy < scale; ++dy)
          for (int dx = 0; dx < scale; ++dx) {
            const int x = rect->X + col * scale + dx, y = rect->Y + (g.first_row + row) * scale + dy;
            std::memset(pixels + (static_cast<size_t>(y) * width + x) * 4, 0xFF, 4);
          }
      }
  }
}

}  // namespace

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
  ImFont* font = io.Fonts->AddFontDefault(&config);
  AddExtraGlyphs(io.Fonts, font, static_cast<int>(r));
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

void RenderFrame(SDL_Window* window, App& app, void (*clear)(int width, int height, const float* rgba), Touch* touch,
                 double t_ms) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  if (touch) touch->BeforeNewFrame();
  ImGui::NewFrame();
  if (touch) touch->AfterNewFrame(t_ms);
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
