// web/ui/theme.h — the colours the panels draw with, for the light and the dark style. The
// App switches them with the ImGui style (the host page's prefers-color-scheme, or theme= in
// the hash), so status text and charts stay readable on either background.
#pragma once

#include <imgui.h>

namespace gpuplan::ui {

struct Palette {
  ImVec4 good, bad, warn, muted;          // status text
  ImU32 chart_bg, grid, grid_minor, text; // chart frame
  ImU32 bar_bg, marker;                   // the fit panel's stacked bar: track, capacity line
};

const Palette& Colors();
void SetPalette(bool dark);

inline ImVec4 Good() { return Colors().good; }
inline ImVec4 Bad() { return Colors().bad; }
inline ImVec4 Warn() { return Colors().warn; }
inline ImVec4 Muted() { return Colors().muted; }

}  // namespace gpuplan::ui
