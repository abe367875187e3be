// web/ui/frame.h — the SDL2 + ImGui setup and per-frame steps that both hosts share.
// The hosts keep only what differs: how the GL context is made, how the loop is driven,
// and where the scenario comes from (URL hash or command line).
#pragma once

#include <SDL.h>

#include <functional>
#include <string_view>
#include <vector>

namespace gpuplan::ui {

class App;
class Touch;

// Creates the ImGui context and style (no .ini file: the URL or flags hold the state).
void InitImGui(SDL_Window* window, SDL_GLContext gl, const char* glsl_version);
// Feeds pending SDL events to ImGui (a file dropped on the window goes to the app's catalog
// import); returns false when the window was closed.
bool PumpEvents(SDL_Window* window, App& app);
// Builds and renders one frame of `app` into the current GL framebuffer. `clear` sets the
// viewport and clears it with the host's own GL header (desktop GL or GLES3). `touch` (the
// page's) sets the mouse and the scrolling of the frame from the fingers (touch.h); `t_ms` is
// the frame's time for its inertia.
void RenderFrame(SDL_Window* window, App& app, void (*clear)(int width, int height, const float* rgba),
                 Touch* touch = nullptr, double t_ms = 0);
// Device pixels per CSS pixel (the page's devicePixelRatio): the font is rebuilt for it.
void SetPixelRatio(float ratio);
void ShutdownImGui();

// Japanese glyphs: a TrueType font merged into the UI font, every character its cmap maps in
// the CJK blocks (the page fetches a subset made at build time for the message table and the
// catalog; the native window reads the system's font). `full`: a font with every glyph, read
// only for characters the reader types that the subset lacks. The atlas is rebuilt before the
// next frame. False where the bytes are not a TrueType font with a Unicode cmap.
bool SetCjkFont(std::vector<unsigned char> ttf, bool full);
// Characters to draw that the atlas lacks (typed or pasted text): added from the full font at
// the next rebuild; where no full font is loaded yet, `want_full` is called once to fetch it.
void WantGlyphs(std::string_view utf8);
void SetWantFullCjkFont(std::function<void()> want_full);
// Codepoints drawn as '?' because no loaded font has them (for the page's tests).
int MissingGlyphCount(std::string_view utf8);

}  // namespace gpuplan::ui
