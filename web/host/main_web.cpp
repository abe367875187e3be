// web/host/main_web.cpp — the Emscripten host: SDL2 window on the page's canvas, WebGL2,
// the scenario in the URL hash, and C functions the page's JavaScript (and the browser
// tests) call to read the state back. The panels are in web/ui; nothing here computes.
#include <GLES3/gl3.h>
#include <SDL.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "app.h"
#include "frame.h"
#include "imgui.h"
#include "touch.h"

namespace {

struct Host {
  SDL_Window* window = nullptr;
  gpuplan::ui::App* app = nullptr;
  long frames = 0;            // frames drawn
  long idle_ticks = 0;        // animation-frame ticks skipped since the last drawn frame
  // Drawing stops while nothing happens (a page left open, two embeds in an article: no work
  // and no battery spent). Anything that may change what is shown wakes it for a while: an SDL
  // event, a resize, the hash, the theme, a call from JavaScript (a pasted or dropped file,
  // the probe's result, the fetched sources, a test reading state). Hover delays, tooltips and
  // scrolling settle within the grace period after the last of them.
  int draw_more = 0;           // frames still to draw before idling
  bool keep_drawing = false;   // the benchmark's frame-cost run: draw every tick
  bool ranking_scheduled = false;  // a whole-catalog ranking waits for its own task
  double frame_ms_max = 0;         // the longest frame since the benchmark last read it
  double frame_ms_total = 0;  // time spent building and submitting frames (emscripten_get_now)
  int css_w = 0, css_h = 0;
  float pixel_ratio = 0;
  float posted_height = 0;  // the content height last posted to the host page (embed mode)
  bool prefer_dark = true;
  std::string scratch;  // backs the strings returned to JavaScript
  // Pasted text for the active field: ImGui drops typed characters while Ctrl (Cmd) is held,
  // and the paste arrives with Ctrl+V down, so it goes in on the first frame after.
  std::string pending_paste;
  gpuplan::ui::Touch touch;  // fingers: taps, scrolling, inertia (the shell's touch events)
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
// Milliseconds from navigation to the first drawn frame (the page-load benchmark reads it).
EM_JS(void, JsFirstFrame, (), { Module.gpuplanFirstFrameMs = performance.now(); });
// The CPU probe (web/probe): a module loaded on first use, threaded where the page is
// cross-origin isolated, single-threaded elsewhere; it answers later through gpuplan_import_text.
EM_JS(int, JsStartThreadedProbe, (int quick), {
  if (typeof Module.gpuplanThreadedProbe !== 'function') return 0;
  Module.gpuplanThreadedProbe(quick);
  return self.crossOriginIsolated ? (navigator.hardwareConcurrency || 1) : 1;
});
// The export buttons: the system clipboard (the click's user activation is still live in the
// next animation frame), with the old execCommand route where the async API is missing or
// refused (an iframe without clipboard-write permission). The last text stays readable for tests.
EM_JS(void, JsCopy, (const char* text), {
  var t = UTF8ToString(text);
  Module.gpuplanLastCopy = t;
  var fallback = function () {
    var a = document.createElement('textarea');
    a.value = t; a.readOnly = true; a.style.position = 'fixed'; a.style.opacity = '0';
    document.body.appendChild(a); a.select();
    try { document.execCommand('copy'); } catch (e) {}
    document.body.removeChild(a);
    Module.canvas.focus();
  };
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(t).catch(fallback);
  else fallback();
});
EM_JS(void, JsDownload, (const char* name, const char* mime, const char* text), {
  var blob = new Blob([UTF8ToString(text)], { type: UTF8ToString(mime) });
  var a = document.createElement('a');
  a.href = URL.createObjectURL(blob); a.download = UTF8ToString(name);
  document.body.appendChild(a); a.click(); document.body.removeChild(a);
  setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
});
EM_JS(char*, JsPageUrl, (), {
  var s = location.href.split('#')[0];
  var n = lengthBytesUTF8(s) + 1; var p = _malloc(n); stringToUTF8(s, p, n); return p;
});
// The host page's colour scheme: an iframe sees the same prefers-color-scheme as its parent.
// Asked every frame: the query list is made once and only read after that.
EM_JS(int, JsPreferDark, (), {
  if (Module.gpuplanLightQuery === undefined)
    Module.gpuplanLightQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: light)') : null;
  return Module.gpuplanLightQuery && Module.gpuplanLightQuery.matches ? 0 : 1;
});
EM_JS(double, JsPixelRatio, (), { return window.devicePixelRatio || 1; });
// The catalog's sources, fetched once when first shown (they are not in the page's wasm).
EM_JS(void, JsLoadSources, (), {
  var answer = function (text) { Module.gpuplanImport(text, 'catalog-sources.json'); };
  fetch('catalog-sources.json').then(function (r) {
    if (!r.ok) throw new Error('HTTP ' + r.status);
    return r.text();
  }).then(answer, function (e) {
    answer(JSON.stringify({ schema: 'gpuplan.catalog-files/1', error: String(e.message || e) }));
  });
});
// For screen readers and tabs: the live region (#live, outside the canvas) and the title follow
// the panel and the scenario.
EM_JS(void, JsAnnounce, (const char* title, const char* live), {
  document.title = UTF8ToString(title);
  var el = document.getElementById('live');
  var text = UTF8ToString(live);
  if (el && el.textContent !== text) el.textContent = text;
});
// Embed mode in a frame: tell the host page how tall the content is (the embed code's script,
// or any listener for 'gpuplan:height', sets the frame's height from it).
EM_JS(void, JsPostHeight, (double height), {
  if (window.parent !== window) window.parent.postMessage({ type: 'gpuplan:height', height: Math.ceil(height) }, '*');
});
// The reader's language (navigator.language): the page's where the link names none.
EM_JS(char*, JsBrowserLang, (), {
  var s = (navigator.languages && navigator.languages[0]) || navigator.language || 'en';
  var n = lengthBytesUTF8(s) + 1; var p = _malloc(n); stringToUTF8(s, p, n); return p;
});
// A language besides English: its message table and its font (a subset made at build time for
// the table and the catalog), fetched together; the answer comes back through
// gpuplan_language_ready or gpuplan_language_failed. The service worker keeps both for offline use.
EM_JS(void, JsLoadLanguage, (const char* code), {
  var c = UTF8ToString(code);
  var get = function (url, kind) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
      return kind === 'text' ? r.text() : r.arrayBuffer();
    });
  };
  Promise.all([get('i18n-' + c + '.json', 'text'), get('font-' + c + '.ttf', 'bytes')]).then(function (got) {
    var text = got[0], font = new Uint8Array(got[1]);
    var n = lengthBytesUTF8(text) + 1, t = _malloc(n);
    stringToUTF8(text, t, n);
    var f = _malloc(font.length);
    HEAPU8.set(font, f);
    Module.ccall('gpuplan_language_ready', null, ['string', 'number', 'number', 'number'], [c, t, f, font.length]);
    _free(t); _free(f);
  }).catch(function (e) {
    Module.ccall('gpuplan_language_failed', null, ['string', 'string'], [c, String(e.message || e)]);
  });
});
// The whole Japanese font (about 2 MB), fetched once the reader types a character the subset lacks.
EM_JS(void, JsLoadFullFont, (), {
  fetch('font-ja-full.ttf').then(function (r) {
    if (!r.ok) throw new Error('HTTP ' + r.status);
    return r.arrayBuffer();
  }).then(function (b) {
    var font = new Uint8Array(b), f = _malloc(font.length);
    HEAPU8.set(font, f);
    Module._gpuplan_full_font(f, font.length);
    _free(f);
  }, function (e) { console.warn('gpuplan: font-ja-full.ttf: ' + (e.message || e)); });
});
// clang-format on

void LoadHash() {
  char* hash = JsReadHash();
  g_host.app->LoadState(hash);
  std::free(hash);
  JsMarkHashRead();
}

void ClearGl(int width, int height, const float* rgba) {
  glViewport(0, 0, width, height);
  glClearColor(rgba[0], rgba[1], rgba[2], rgba[3]);
  glClear(GL_COLOR_BUFFER_BIT);
}

// About a second and a half at 60 Hz.
constexpr int kGraceFrames = 90;

void Wake() { g_host.draw_more = kGraceFrames; }

// The ranking the Compare panel asked for, in a task of its own after the frame (setTimeout 0:
// the browser paints the frame first), then a frame to show it.
void RankBetweenFrames(void*) {
  g_host.ranking_scheduled = false;
  if (!g_host.app->RankingWanted()) return;
  g_host.app->RankNow();
  Wake();
}

// One frame: events, the panels, GL. MainLoop calls it on animation frames; a tap draws its
// press and release frames at once (gpuplan_touch), inside the browser's event.
void DrawFrame() {
  g_host.idle_ticks = 0;
  const double t0 = emscripten_get_now();
  gpuplan::ui::PumpEvents(g_host.window, *g_host.app);
  // After the events: a Ctrl (Cmd) released in them lets the paste in this very frame.
  if (!g_host.pending_paste.empty()) {
    ImGuiIO& io = ImGui::GetIO();
    if (!io.WantTextInput) g_host.pending_paste.clear();  // the field was left meanwhile
    else if (!io.KeyCtrl && !io.KeySuper) io.AddInputCharactersUTF8(g_host.pending_paste.c_str()), g_host.pending_paste.clear();
    Wake();
  }
  gpuplan::ui::RenderFrame(g_host.window, *g_host.app, ClearGl, &g_host.touch, t0);
  if (g_host.touch.Animating()) Wake();  // a glide still moving
  g_host.frame_ms_total += emscripten_get_now() - t0;
  g_host.frame_ms_max = std::max(g_host.frame_ms_max, emscripten_get_now() - t0);
  if (g_host.app->ConsumeStateChanged() || g_host.frames == 0) {
    JsWriteHash(g_host.app->StateHash().c_str());
    JsAnnounce(g_host.app->PageTitle().c_str(), g_host.app->LiveText().c_str());
  }
  if (const float content = g_host.app->EmbedContentHeight();
      content > 0 && std::abs(content - g_host.posted_height) >= 1) {
    g_host.posted_height = content;
    JsPostHeight(content);
  }
  if (g_host.app->RankingWanted() && !g_host.ranking_scheduled) {
    g_host.ranking_scheduled = true;
    emscripten_async_call(RankBetweenFrames, nullptr, 0);
  }
  if (++g_host.frames == 1) JsFirstFrame();
  if (g_host.frames == 2) JsReady();
}

void MainLoop() {
  // Follow the container's size (the canvas fills an iframe or a page section).
  int w = JsContainerWidth(), h = JsContainerHeight();
  if (w > 0 && h > 0 && (w != g_host.css_w || h != g_host.css_h)) {
    SDL_SetWindowSize(g_host.window, w, h);
    g_host.css_w = w;
    g_host.css_h = h;
    Wake();
  }
  if (JsHashChanged()) LoadHash(), Wake();  // the user edited the URL or followed a link
  const bool dark = JsPreferDark() != 0;
  if (dark != g_host.prefer_dark) {
    g_host.prefer_dark = dark;
    g_host.app->SetPreferDark(dark);
    Wake();
  }
  const float ratio = static_cast<float>(JsPixelRatio());
  if (ratio != g_host.pixel_ratio) g_host.pixel_ratio = ratio, Wake();
  gpuplan::ui::SetPixelRatio(ratio);
  SDL_PumpEvents();
  if (SDL_PeepEvents(nullptr, 0, SDL_PEEKEVENT, SDL_FIRSTEVENT, SDL_LASTEVENT) > 0) Wake();
  // A text field being edited blinks its cursor: keep drawing while one has the keyboard.
  const bool editing = g_host.frames > 0 && ImGui::GetIO().WantTextInput;
  if (g_host.frames >= 2 && g_host.draw_more <= 0 && !editing && !g_host.keep_drawing) {
    ++g_host.idle_ticks;
    return;  // nothing to draw: the canvas keeps showing the last frame
  }
  if (g_host.draw_more > 0) --g_host.draw_more;
  DrawFrame();
}

}  // namespace

// Read-back functions for the page and the end-to-end tests. The returned pointer stays
// valid until the next call of any of them.
extern "C" {
EMSCRIPTEN_KEEPALIVE const char* gpuplan_report_json() {
  Wake();
  g_host.scratch = g_host.app->ReportJson();
  return g_host.scratch.c_str();
}
// What `gpuplan <which> --format json` prints: which = "fit", "speed" or "compare".
EMSCRIPTEN_KEEPALIVE const char* gpuplan_result_json(const char* which) {
  Wake();
  g_host.scratch = g_host.app->ResultJson(which ? which : "");
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpuplan_state_hash() {
  Wake();
  g_host.scratch = g_host.app->StateHash();
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpuplan_widget_rects() {
  Wake();
  g_host.scratch = g_host.app->WidgetRectsJson();
  return g_host.scratch.c_str();
}
// The page shell calls this with the text of a file dropped on the page (or pasted), in a
// heap buffer it allocated (gpuplanImport: ccall's 'string' would copy it onto the 5 MB stack).
EMSCRIPTEN_KEEPALIVE const char* gpuplan_import_text(const char* text, const char* name) {
  Wake();
  g_host.scratch = g_host.app->ImportText(text ? text : "", name ? name : "");
  return g_host.scratch.c_str();
}
// ... or, for a file over Session::kMaxImportBytes, only its name and size.
EMSCRIPTEN_KEEPALIVE const char* gpuplan_import_too_large(const char* name, double bytes) {
  Wake();
  g_host.scratch = g_host.app->ImportTooLarge(name ? name : "", bytes);
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpuplan_ui_state() {
  Wake();
  g_host.scratch = g_host.app->UiStateJson();
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpuplan_field_errors() {
  Wake();
  g_host.scratch = g_host.app->FieldErrorsJson();
  return g_host.scratch.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* gpuplan_notices() {
  Wake();
  std::string out = "[";
  for (const auto* list : {&g_host.app->HostNotices(), &g_host.app->Notices()})
    for (const std::string& n : *list) {
      if (out.size() > 1) out += ",";
      out += "\"";
      for (char c : n) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
      out += "\"";
    }
  g_host.scratch = out + "]";
  return g_host.scratch.c_str();
}
// The shell's word on the host (index.html: a .wasm served with another type).
EMSCRIPTEN_KEEPALIVE void gpuplan_host_notice(const char* what) {
  Wake();
  g_host.app->HostNotice(what ? what : "");
}
EMSCRIPTEN_KEEPALIVE long gpuplan_frame_count() { return g_host.frames; }
// The page shell hands over pasted text: ImGui's Ctrl+V reads SDL's clipboard, which in the
// browser is not the system's.
EMSCRIPTEN_KEEPALIVE void gpuplan_set_clipboard(const char* text) {
  Wake();
  SDL_SetClipboardText(text ? text : "");
}
// A paste (the page shell's paste event, Ctrl+V no longer swallowed by SDL): into the text
// field being edited, as if typed (ImGui filters what the field does not take, e.g. a newline in
// a one-line field). 0 when no field has the keyboard: the shell then tries it as an import.
EMSCRIPTEN_KEEPALIVE int gpuplan_paste(const char* text) {
  Wake();
  if (!text || !ImGui::GetIO().WantTextInput) return 0;
  SDL_SetClipboardText(text);  // ImGui's own copy and paste stay consistent with it
  g_host.pending_paste = text;  // typed in once Ctrl is up (MainLoop)
  return 1;
}
// Animation-frame ticks the page let pass without drawing since its last frame (the idle test
// reads it), and the benchmark's switch to draw every tick.
// A finger on the canvas (the shell's touch listeners; SDL never sees touches): phase 0 down,
// 1 move, 2 up, 3 cancel; x, y in CSS pixels from the canvas's corner; t_ms the event's
// timeStamp (performance.now()'s clock: when the finger moved, however late the page handles
// it — a busy page would otherwise read a fling as slow). Returns Touch::Answer
// bits: 1 the page took it (the shell cancels the browser's default: no scroll of the host
// page, no emulated mouse click), 2 a tap activated a text field (the shell focuses its hidden
// input so the on-screen keyboard opens, still inside the tap's user gesture).
EMSCRIPTEN_KEEPALIVE int gpuplan_touch(int phase, double x, double y, double t_ms) {
  using gpuplan::ui::Touch;
  Wake();
  const float fx = static_cast<float>(x), fy = static_cast<float>(y);
  const double now = t_ms > 0 ? t_ms : emscripten_get_now();  // the finger's time, not the handler's
  switch (phase) {
    case 0: g_host.touch.Down(fx, fy, now); return Touch::kPass;
    case 1: return g_host.touch.Move(fx, fy, now);
    case 2:
      if (!g_host.touch.Up(fx, fy, now)) return g_host.touch.Animating() ? Touch::kConsumed : Touch::kPass;
      DrawFrame();  // press
      DrawFrame();  // release: the click
      return Touch::kConsumed | (gpuplan::ui::TextFieldActive() ? Touch::kTextField : 0);
    default: g_host.touch.Cancel(); return Touch::kPass;
  }
}
// The wheel over an embed: 1 when something under the pointer can scroll that way (the page
// takes the wheel), 0 when the host page should scroll instead.
EMSCRIPTEN_KEEPALIVE int gpuplan_can_scroll(double x, double y, double dx, double dy) {
  const bool vertical = std::abs(dy) >= std::abs(dx);
  return gpuplan::ui::Touch::FindScrollable(static_cast<float>(x), static_cast<float>(y), vertical ? 1 : 0,
                                            static_cast<float>(vertical ? -dy : -dx)) != 0;
}
// The text field a tap activated, edited through the shell's hidden input: its text, and the
// input's whole value back on every change (the on-screen keyboard, IME and autocorrect edit
// that element; the field shows it).
EMSCRIPTEN_KEEPALIVE const char* gpuplan_active_text() {
  g_host.scratch = gpuplan::ui::ActiveText();
  return g_host.scratch.c_str();
}
// 1 while a text field has the keyboard and the page speaks a language typed through an IME
// (Japanese): the shell then moves a mouse user's typing into its hidden input.
EMSCRIPTEN_KEEPALIVE int gpuplan_text_field_ime() {
  return gpuplan::CurrentLang() != gpuplan::Lang::kEn && gpuplan::ui::TextFieldActive() ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void gpuplan_set_active_text(const char* text) {
  Wake();
  gpuplan::ui::WantGlyphs(text ? text : "");  // an IME's kanji the font subset lacks
  gpuplan::ui::ReplaceActiveText(text ? text : "");
}
// The hidden input's Enter (0) or Escape (1), or the input left (0): the field takes (or drops)
// the text as it does for the keys, pressed and released over two frames.
EMSCRIPTEN_KEEPALIVE void gpuplan_text_key(int which) {
  Wake();
  if (!gpuplan::ui::TextFieldActive()) return;
  SDL_Event e{};
  e.type = SDL_KEYDOWN;
  e.key.windowID = SDL_GetWindowID(g_host.window);
  e.key.keysym.scancode = which == 1 ? SDL_SCANCODE_ESCAPE : SDL_SCANCODE_RETURN;
  e.key.keysym.sym = which == 1 ? SDLK_ESCAPE : SDLK_RETURN;
  SDL_PushEvent(&e);
  DrawFrame();
  e.type = SDL_KEYUP;
  SDL_PushEvent(&e);
  DrawFrame();
}
// The language's table (JSON text) and font (TrueType bytes) the shell fetched (JsLoadLanguage).
EMSCRIPTEN_KEEPALIVE void gpuplan_language_ready(const char* code, const char* table, const unsigned char* font,
                                                 int size) {
  Wake();
  const std::optional<gpuplan::Lang> lang = gpuplan::ParseLang(code ? code : "");
  if (!lang) return;
  if (!gpuplan::ui::SetCjkFont(std::vector<unsigned char>(font, font + std::max(size, 0)), false))
    return g_host.app->LanguageFailed(*lang, "the font is not a TrueType font with a Unicode cmap");
  g_host.app->LanguageReady(*lang, table ? table : "");
}
EMSCRIPTEN_KEEPALIVE void gpuplan_language_failed(const char* code, const char* why) {
  Wake();
  if (const std::optional<gpuplan::Lang> lang = gpuplan::ParseLang(code ? code : ""))
    g_host.app->LanguageFailed(*lang, why ? why : "");
}
EMSCRIPTEN_KEEPALIVE void gpuplan_full_font(const unsigned char* font, int size) {
  Wake();
  gpuplan::ui::SetCjkFont(std::vector<unsigned char>(font, font + std::max(size, 0)), true);
}
// Characters of `text` that no loaded font draws (the tests: Japanese shows as glyphs, not '?').
EMSCRIPTEN_KEEPALIVE int gpuplan_missing_glyphs(const char* text) {
  return gpuplan::ui::MissingGlyphCount(text ? text : "");
}
EMSCRIPTEN_KEEPALIVE long gpuplan_idle_ticks() { return g_host.idle_ticks; }
EMSCRIPTEN_KEEPALIVE void gpuplan_keep_drawing(int on) { g_host.keep_drawing = on != 0; }
// The longest frame since the last call (the benchmark: is the ranking ever inside a frame).
EMSCRIPTEN_KEEPALIVE double gpuplan_frame_ms_max() {
  const double m = g_host.frame_ms_max;
  g_host.frame_ms_max = 0;
  return m;
}
// Milliseconds spent in frames so far (events, panels, ImGui, GL submit): the difference over a
// number of frames is the mean frame cost the benchmark prints.
EMSCRIPTEN_KEEPALIVE double gpuplan_frame_ms_total() { return g_host.frame_ms_total; }
// What an export button would copy: kind = link, embed, markdown, json, cli; panel = fit, ...
EMSCRIPTEN_KEEPALIVE const char* gpuplan_export_text(const char* kind, const char* panel) {
  Wake();
  g_host.scratch = g_host.app->ExportText(kind ? kind : "", panel ? panel : "");
  return g_host.scratch.c_str();
}
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
  // No title: Emscripten's SDL would write it over the page's <title> (the embedding page's,
  // in an iframe the shell's), which names the tool for tabs, bookmarks and screen readers.
  g_host.window = SDL_CreateWindow(nullptr, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w > 0 ? w : 1280,
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
  gpuplan::ui::HostServices host;
  host.copy = [](const std::string& text) { JsCopy(text.c_str()); };
  host.save = [](const std::string& name, const std::string& mime, const std::string& text) {
    JsDownload(name.c_str(), mime.c_str(), text.c_str());
    return "downloaded " + name;
  };
  host.load_sources = [] { JsLoadSources(); };
  host.load_language = [](gpuplan::Lang lang) { JsLoadLanguage(gpuplan::LangCode(lang)); };
  gpuplan::ui::SetWantFullCjkFont([] { JsLoadFullFont(); });
  char* url = JsPageUrl();
  host.page_url = url;
  std::free(url);
  app.SetHost(host);
  app.SetDeferRanking(true);
  g_host.prefer_dark = JsPreferDark() != 0;
  app.SetPreferDark(g_host.prefer_dark);
  gpuplan::ui::SetPixelRatio(static_cast<float>(JsPixelRatio()));
  char* browser_lang = JsBrowserLang();
  app.SetBrowserLang(browser_lang);
  std::free(browser_lang);
  LoadHash();
  JsWriteHash(app.StateHash().c_str());  // a complete, versioned link from the first frame
  Wake();
  emscripten_set_main_loop(MainLoop, 0, true);
  return 0;
}
