// native/gui/main_native.cpp — the native window: SDL2 + desktop OpenGL 3, the same panels
// as the page (web/ui). The scenario comes from --state (a page link's hash).
//
//   gpuplan-gui [--state HASH] [--size WxH] [--frames N] [--print-report] [--print-result PANEL]
//   gpuplan-gui --version   the program's and the catalog's versions, as gpuplan --version
//   --frames N       quit after N frames (0: run until the window is closed)
//   --print-report   print the fit report JSON at exit (the same schema as the CLI's)
//   --print-result P print what `gpuplan P --format json` prints (P = fit, speed, cost, compare,
//                    train, roofline) at exit
// The state may carry the page's keys too: tab=cost opens a panel, theme=light.
// GPUPLAN_PAGE_URL sets the address "Copy link" and "Copy embed code" use.
#include <SDL.h>
#include <SDL_opengl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app.h"
#include "frame.h"
#include "gpuplan/i18n.h"
#include "gpuplan/machine.h"
#include "gpuplan/version.h"

namespace {

void ClearGl(int width, int height, const float* rgba) {
  glViewport(0, 0, width, height);
  glClearColor(rgba[0], rgba[1], rgba[2], rgba[3]);
  glClear(GL_COLOR_BUFFER_BIT);
}

int Usage(const char* why) {
  std::fprintf(stderr,
               "gpuplan-gui: error: %s\nusage: gpuplan-gui [--version] [--state HASH] [--size WxH] [--frames N] "
               "[--print-report] [--print-result PANEL]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string state;
  long frames_limit = 0;
  int width = 1280, height = 800;
  bool print_report = false;
  std::string print_result;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool has_value = i + 1 < argc;
    if (arg == "--state" && has_value) {
      state = argv[++i];
    } else if (arg == "--frames" && has_value) {
      char* end = nullptr;
      frames_limit = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || frames_limit < 0) return Usage("--frames: expected a whole number >= 0");
    } else if (arg == "--size" && has_value) {
      if (std::sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width < 200 || height < 150 || width > 16384 ||
          height > 16384)
        return Usage("--size: expected WxH, e.g. 1280x800");
    } else if (arg == "--version") {
      const gpuplan::Result<gpuplan::Catalog>& cat = gpuplan::EmbeddedCatalog();
      std::printf("gpuplan-gui %s\n%s\n", gpuplan::ProgramVersion(),
                  gpuplan::TrF("git commit: {0}", {gpuplan::GitCommit()}).c_str());
      if (cat.ok())
        std::printf("%s\n", gpuplan::TrF("catalog: {0}, {1} accelerators, {2} models",
                                         {gpuplan::CatalogVersion(cat.value()), std::to_string(cat.value().gpus.size()),
                                          std::to_string(cat.value().models.size())})
                                .c_str());
      return 0;
    } else if (arg == "--print-report") {
      print_report = true;
    } else if (arg == "--print-result" && has_value) {
      print_result = argv[++i];
    } else {
      return Usage(("unknown or incomplete argument '" + arg + "'").c_str());
    }
  }

  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    std::fprintf(stderr, "gpuplan-gui: error: SDL_Init failed: %s\n", SDL_GetError());
    return 1;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 2);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_Window* window = SDL_CreateWindow("gpuplan", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height,
                                        SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  SDL_GLContext gl = window ? SDL_GL_CreateContext(window) : nullptr;
  if (!gl) {
    std::fprintf(stderr, "gpuplan-gui: error: no OpenGL 3.2 context: %s\n", SDL_GetError());
    return 1;
  }
  SDL_GL_MakeCurrent(window, gl);
  SDL_GL_SetSwapInterval(1);
  gpuplan::ui::InitImGui(window, gl, "#version 150");

  gpuplan::ui::App app;
  gpuplan::ui::HostServices host;
  // Natively a "download" is a file in the working folder.
  host.save = [](const std::string& name, const std::string&, const std::string& text) {
    std::ofstream out(name, std::ios::binary);
    out << text;
    return out.good() ? "saved " + name + " in the working folder" : "could not write " + name;
  };
  host.measure_cpu = [](bool quick) {
    gpuplan::CpuProbeOptions options;
    options.quick = quick;
    return gpuplan::MeasureMachine(options);
  };
  if (const char* url = std::getenv("GPUPLAN_PAGE_URL")) host.page_url = url;
  // Japanese: the built-in message table and the system's Japanese font (Debian's
  // fonts-ipaexfont-gothic, or GPUPLAN_CJK_FONT), of which the atlas takes the characters of the
  // table and the kana, then whatever the reader types.
  host.load_language = [&app](gpuplan::Lang lang) {
    const char* path = std::getenv("GPUPLAN_CJK_FONT");
    if (!path) path = "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf";
    std::ifstream in(path, std::ios::binary);
    std::vector<unsigned char> font((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!gpuplan::ui::SetCjkFont(std::move(font), true))
      return app.LanguageFailed(lang,
                                std::string("no Japanese font at ") + path + " (apt install fonts-ipaexfont-gothic)");
    const std::string_view table = gpuplan::BuiltInMessages(lang);
    if (gpuplan::Result<std::size_t> n = gpuplan::LoadMessages(lang, table); !n.ok())
      return app.LanguageFailed(lang, n.error());
    std::string glyphs;
    for (unsigned c = 0x3001; c <= 0x30FF; ++c)  // CJK punctuation, hiragana, katakana
      glyphs += static_cast<char>(0xE0 | (c >> 12)), glyphs += static_cast<char>(0x80 | ((c >> 6) & 0x3F)),
          glyphs += static_cast<char>(0x80 | (c & 0x3F));
    for (std::size_t i = 0; i < gpuplan::MessageCount(lang); ++i) glyphs += gpuplan::MessageValue(lang, i);
    gpuplan::ui::WantGlyphs(glyphs);
    app.LanguageReady(lang, {});
  };
  if (const char* l = std::getenv("LANG")) app.SetBrowserLang(l);  // ja_JP.UTF-8: Japanese
  app.SetHost(host);
  app.LoadState(state);
  for (const std::string& n : app.Notices()) std::fprintf(stderr, "gpuplan-gui: dropped from --state: %s\n", n.c_str());

  app.SetDeferRanking(true);
  long frames = 0;
  while (gpuplan::ui::PumpEvents(window, app)) {
    const Uint64 start = SDL_GetTicks64();
    gpuplan::ui::RenderFrame(window, app, ClearGl);
    if (app.RankingWanted()) app.RankNow();  // between frames: the next one shows it
    // Without vsync (Xvfb, some drivers) cap at ~60 frames/s instead of spinning a core.
    const Uint64 spent = SDL_GetTicks64() - start;
    if (spent < 16) SDL_Delay(static_cast<Uint32>(16 - spent));
    if (frames_limit > 0 && ++frames >= frames_limit) break;
  }
  if (print_report) std::printf("%s\n", app.ReportJson().c_str());
  if (!print_result.empty()) {
    const std::string json = app.ResultJson(print_result);
    if (json.empty()) std::fprintf(stderr, "gpuplan-gui: error: --print-result: '%s' is not a panel\n", print_result.c_str());
    else std::printf("%s\n", json.c_str());
  }

  gpuplan::ui::ShutdownImGui();
  SDL_GL_DeleteContext(gl);
  SDL_DestroyWindow(window);
  SDL_Quit();
  return 0;
}
