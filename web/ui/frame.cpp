#include "frame.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>

#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8, ImTextStrToUtf8

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

namespace {

// The CJK fonts and the codepoints the atlas takes from them (ImGui keeps a pointer to the
// ranges until the atlas is rebuilt, so they live here).
struct CjkFonts {
  std::vector<unsigned char> subset, full;
  std::vector<ImWchar> subset_ranges, extra_ranges;  // pairs, 0-terminated
  std::vector<unsigned> extra;                       // typed codepoints found in the full font
  std::vector<unsigned> pending;                     // typed before the full font arrived
  std::function<void()> want_full;
  bool full_asked = false;
  bool dirty = false;
  float ratio = 0;
};
CjkFonts& Cjk() {
  static CjkFonts fonts;
  return fonts;
}

unsigned Be16(const std::vector<unsigned char>& b, size_t at) {
  return at + 2 <= b.size() ? (b[at] << 8u) | b[at + 1] : 0;
}
unsigned long Be32(const std::vector<unsigned char>& b, size_t at) {
  return at + 4 <= b.size() ? (static_cast<unsigned long>(Be16(b, at)) << 16) | Be16(b, at + 2) : 0;
}

// The blocks taken from the CJK font; the rest (Latin, the marks drawn above) stays the UI font's.
bool CjkBlock(unsigned c) {
  return (c >= 0x3000 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF);
}

// The codepoints a TrueType font maps to a glyph (its cmap's format 4 subtable, Windows Unicode
// BMP or Unicode platform; OpenType spec, "cmap — Character to Glyph Index Mapping Table"),
// within `keep`. Every read is bounds-checked: the bytes come over the network.
std::vector<unsigned> MappedCodepoints(const std::vector<unsigned char>& b, bool (*keep)(unsigned)) {
  std::vector<unsigned> out;
  const unsigned tables = Be16(b, 4);
  size_t cmap = 0;
  for (unsigned i = 0; i < tables && !cmap; ++i)
    if (Be32(b, 12 + 16 * i) == 0x636D6170u) cmap = Be32(b, 12 + 16 * i + 8);  // 'cmap'
  if (!cmap) return out;
  size_t sub = 0;
  for (unsigned i = 0, n = Be16(b, cmap + 2); i < n; ++i) {
    const size_t rec = cmap + 4 + 8 * i;
    const unsigned platform = Be16(b, rec), encoding = Be16(b, rec + 2);
    const size_t at = cmap + Be32(b, rec + 4);
    if (((platform == 3 && encoding == 1) || platform == 0) && Be16(b, at) == 4) sub = at;
  }
  if (!sub) return out;
  const unsigned segs = Be16(b, sub + 6) / 2;
  const size_t ends = sub + 14, starts = ends + 2 * segs + 2, deltas = starts + 2 * segs, offsets = deltas + 2 * segs;
  if (offsets + 2 * segs > b.size()) return out;
  for (unsigned i = 0; i < segs; ++i) {
    const unsigned end = Be16(b, ends + 2 * i), start = Be16(b, starts + 2 * i), delta = Be16(b, deltas + 2 * i);
    const unsigned range = Be16(b, offsets + 2 * i);
    for (unsigned c = start; c <= end && c < 0xFFFF; ++c) {
      if (!keep(c)) continue;
      unsigned glyph = 0;
      if (range == 0)
        glyph = (c + delta) & 0xFFFFu;
      else if (const unsigned g = Be16(b, offsets + 2 * i + range + 2 * (c - start)))
        glyph = (g + delta) & 0xFFFFu;
      if (glyph) out.push_back(c);
    }
  }
  return out;
}

// Sorted codepoints as ImGui's ranges: [first, last] pairs, then 0.
std::vector<ImWchar> Ranges(std::vector<unsigned> cps) {
  std::sort(cps.begin(), cps.end());
  std::vector<ImWchar> r;
  for (unsigned c : cps) {
    if (!r.empty() && r.back() + 1u == c)
      r.back() = static_cast<ImWchar>(c);
    else if (r.empty() || r.back() < c)
      r.push_back(static_cast<ImWchar>(c)), r.push_back(static_cast<ImWchar>(c));
  }
  r.push_back(0);
  return r;
}

void Utf8Codepoints(std::string_view s, const std::function<void(unsigned)>& each) {
  for (size_t i = 0; i < s.size();) {
    unsigned c = 0;
    const int n = ImTextCharFromUtf8(&c, s.data() + i, s.data() + s.size());
    if (n <= 0) break;
    i += static_cast<size_t>(n);
    each(c);
  }
}

// The UI font: ImGui's ProggyClean, a pixel font drawn for 13 px; on a display with 2 device
// pixels per CSS pixel it is rasterised at 26 px and drawn at half scale, so each glyph pixel
// lands on whole device pixels (crisp, not a blurred 13 px texture stretched twice). The CJK
// font merges into it at the same size: IPAex Gothic's em is 13 px, its ideographs sit on the
// pixel font's baseline one pixel lower than its own ascent puts them.
void BuildFonts(float r) {
  CjkFonts& cjk = Cjk();
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.SizePixels = 13.0f * r;
  ImFont* font = io.Fonts->AddFontDefault(&config);
  auto merge = [&](std::vector<unsigned char>& ttf, const std::vector<ImWchar>& ranges) {
    if (ttf.empty() || ranges.size() < 2) return;
    ImFontConfig c;
    c.MergeMode = true;
    c.FontDataOwnedByAtlas = false;  // the bytes stay ours: the atlas is rebuilt on every ratio change
    c.OversampleH = 1;
    c.PixelSnapH = true;
    c.GlyphOffset = ImVec2(0, 1.0f * r);
    io.Fonts->AddFontFromMemoryTTF(ttf.data(), static_cast<int>(ttf.size()), 13.0f * r, &c, ranges.data());
  };
  merge(cjk.subset, cjk.subset_ranges);
  merge(cjk.full, cjk.extra_ranges);
  AddExtraGlyphs(io.Fonts, font, static_cast<int>(r));
  io.FontGlobalScale = 1.0f / r;
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  cjk.ratio = r;
  cjk.dirty = false;
}

}  // namespace

void SetPixelRatio(float ratio) {
  const float r = ratio >= 1.5f ? std::round(ratio) : 1.0f;
  if (r == Cjk().ratio && !Cjk().dirty) return;
  BuildFonts(r);
}

bool SetCjkFont(std::vector<unsigned char> ttf, bool full) {
  CjkFonts& cjk = Cjk();
  std::vector<unsigned> cps = MappedCodepoints(ttf, CjkBlock);
  if (cps.empty()) return false;
  if (full) {
    cjk.full = std::move(ttf);
    for (unsigned c : cjk.pending)
      if (std::binary_search(cps.begin(), cps.end(), c)) cjk.extra.push_back(c);
    cjk.pending.clear();
    cjk.extra_ranges = Ranges(cjk.extra);
  } else {
    cjk.subset = std::move(ttf);
    cjk.subset_ranges = Ranges(std::move(cps));
  }
  cjk.dirty = true;
  return true;
}

void SetWantFullCjkFont(std::function<void()> want_full) {
  Cjk().want_full = std::move(want_full);
}

void WantGlyphs(std::string_view utf8) {
  CjkFonts& cjk = Cjk();
  const ImFont* font = ImGui::GetIO().Fonts->Fonts.empty() ? nullptr : ImGui::GetIO().Fonts->Fonts[0];
  if (!font || (cjk.subset.empty() && cjk.full.empty())) return;  // no Japanese in use: ImGui's '?' as before
  bool added = false, need_full = false;
  Utf8Codepoints(utf8, [&](unsigned c) {
    if (!CjkBlock(c) || font->FindGlyphNoFallback(static_cast<ImWchar>(c))) return;
    if (std::find(cjk.extra.begin(), cjk.extra.end(), c) != cjk.extra.end()) return;
    if (cjk.full.empty()) {
      need_full = true;
      cjk.pending.push_back(c);
      return;
    }
    cjk.extra.push_back(c);
    added = true;
  });
  if (added) {
    cjk.extra_ranges = Ranges(cjk.extra);
    cjk.dirty = true;
  }
  if (need_full && !cjk.full_asked && cjk.want_full) {
    cjk.full_asked = true;
    cjk.want_full();
  }
}

int MissingGlyphCount(std::string_view utf8) {
  const ImFont* font = ImGui::GetIO().Fonts->Fonts.empty() ? nullptr : ImGui::GetIO().Fonts->Fonts[0];
  int missing = 0;
  Utf8Codepoints(utf8, [&](unsigned c) {
    if (c >= 0x20 && (!font || !font->FindGlyphNoFallback(static_cast<ImWchar>(c)))) ++missing;
  });
  return missing;
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
  // Characters typed this frame that the atlas lacks come from the full CJK font next frame.
  const ImVector<ImWchar>& typed = ImGui::GetIO().InputQueueCharacters;
  if (!typed.empty()) {
    std::string utf8(static_cast<size_t>(typed.Size) * 4 + 1, '\0');
    utf8.resize(
        static_cast<size_t>(ImTextStrToUtf8(utf8.data(), static_cast<int>(utf8.size()), typed.begin(), typed.end())));
    WantGlyphs(utf8);
  }
  if (Cjk().dirty) BuildFonts(Cjk().ratio);
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
