#include "theme.h"

namespace gpuplan::ui {

namespace {

// Dark: light text on ImGui's dark style. Light: the same hues darkened to keep a 4.5:1
// contrast on white (WCAG 2.1 AA for text).
const Palette kDark{ImVec4(0.35f, 0.80f, 0.45f, 1), ImVec4(0.95f, 0.40f, 0.35f, 1), ImVec4(0.95f, 0.75f, 0.30f, 1),
                    ImVec4(0.65f, 0.65f, 0.70f, 1), IM_COL32(28, 28, 34, 255),         IM_COL32(78, 78, 90, 255),
                    IM_COL32(44, 44, 54, 255),      IM_COL32(170, 170, 180, 255),      IM_COL32(50, 50, 58, 255),
                    IM_COL32(255, 255, 255, 255)};
const Palette kLight{ImVec4(0.05f, 0.45f, 0.15f, 1), ImVec4(0.75f, 0.10f, 0.08f, 1), ImVec4(0.55f, 0.35f, 0.0f, 1),
                     ImVec4(0.36f, 0.36f, 0.42f, 1), IM_COL32(250, 250, 252, 255),     IM_COL32(190, 190, 200, 255),
                     IM_COL32(228, 228, 234, 255),   IM_COL32(70, 70, 80, 255),        IM_COL32(220, 220, 228, 255),
                     IM_COL32(20, 20, 24, 255)};
const Palette* g_palette = &kDark;

}  // namespace

const Palette& Colors() { return *g_palette; }
void SetPalette(bool dark) { g_palette = dark ? &kDark : &kLight; }

}  // namespace gpuplan::ui
