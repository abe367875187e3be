#include "roofline_chart.h"

#include <algorithm>
#include <cmath>

#include "theme.h"
#include <string>

#include <imgui.h>

#include "gpuplan/i18n.h"
#include "gpuplan/units.h"

namespace gpuplan::ui {

namespace {

ImU32 Rgb(uint32_t rgb, int alpha = 255) {
  return IM_COL32((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff, alpha);
}

// Dashes along a segment in screen space (ImDrawList has no dashed line).
void DashedLine(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float thickness) {
  const float dx = b.x - a.x, dy = b.y - a.y, length = std::sqrt(dx * dx + dy * dy);
  if (length < 1) return;
  constexpr float kDash = 6, kGap = 4;
  for (float t = 0; t < length; t += kDash + kGap) {
    const float e = std::min(length, t + kDash);
    dl->AddLine(ImVec2(a.x + dx * t / length, a.y + dy * t / length),
                ImVec2(a.x + dx * e / length, a.y + dy * e / length), color, thickness);
  }
}

}  // namespace

int RooflineWidget(const char* id, const RooflineChart& c, float height) {
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(240.0f, ImGui::GetContentRegionAvail().x);
  const float font = ImGui::GetFontSize();
  const float pad_l = ImGui::CalcTextSize("100 TFLOP/s").x + 10, pad_b = font * 2.6f, pad_t = 6, pad_r = 14;
  ImGui::InvisibleButton("roofline", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0(origin.x + pad_l, origin.y + pad_t), p1(origin.x + width - pad_r, origin.y + height - pad_b);
  dl->AddRectFilled(p0, p1, Colors().chart_bg);
  const double lx0 = std::log10(c.x_lo), lx1 = std::log10(c.x_hi), ly0 = std::log10(c.y_lo), ly1 = std::log10(c.y_hi);
  if (!(lx1 > lx0) || !(ly1 > ly0)) {
    dl->AddText(ImVec2(p0.x + 8, p0.y + 8), Colors().text, Tr("no data"));
    ImGui::PopID();
    return -1;
  }
  auto X = [&](double x) {
    return p0.x + static_cast<float>((std::log10(std::max(x, 1e-300)) - lx0) / (lx1 - lx0)) * (p1.x - p0.x);
  };
  auto Y = [&](double y) {
    return p1.y - static_cast<float>((std::log10(std::max(y, 1e-300)) - ly0) / (ly1 - ly0)) * (p1.y - p0.y);
  };
  const ImU32 major = Colors().grid, minor = Colors().grid_minor, text = Colors().text;
  for (const Tick& t : LogTicks(c.x_lo, c.x_hi, "FLOP/B")) {
    dl->AddLine(ImVec2(X(t.value), p0.y), ImVec2(X(t.value), p1.y), t.major ? major : minor);
    if (t.major)
      dl->AddText(ImVec2(X(t.value) - ImGui::CalcTextSize(t.label.c_str()).x / 2, p1.y + 2), text, t.label.c_str());
  }
  for (const Tick& t : LogTicks(c.y_lo, c.y_hi, "FLOP/s")) {
    dl->AddLine(ImVec2(p0.x, Y(t.value)), ImVec2(p1.x, Y(t.value)), t.major ? major : minor);
    if (t.major)
      dl->AddText(ImVec2(p0.x - ImGui::CalcTextSize(t.label.c_str()).x - 4, Y(t.value) - font / 2), text,
                  t.label.c_str());
  }
  const char* x_title = Tr("arithmetic intensity (FLOP per byte)");
  dl->AddText(ImVec2((p0.x + p1.x - ImGui::CalcTextSize(x_title).x) / 2, p1.y + font * 1.3f), text, x_title);
  dl->PushClipRect(p0, p1, true);
  for (const ChartRoof& r : c.roofs)
    for (size_t i = 1; i < r.line.size(); ++i) {
      const ImVec2 a(X(r.line[i - 1].first), Y(r.line[i - 1].second)), b(X(r.line[i].first), Y(r.line[i].second));
      if (r.dashed)
        DashedLine(dl, a, b, Rgb(r.color), 2.0f);
      else
        dl->AddLine(a, b, Rgb(r.color), 2.0f);
    }
  int hovered_point = -1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  float best = 7.0f * 7.0f;
  for (size_t i = 0; i < c.points.size(); ++i) {
    const ChartPoint& p = c.points[i];
    if (!(p.intensity > 0 && p.flops_per_s > 0)) continue;
    const ImVec2 at(X(p.intensity), Y(p.flops_per_s));
    if (p.measured)
      dl->AddCircle(at, 4.5f, Rgb(p.color == 0x333333 ? 0xdddddd : p.color), 0, 1.8f);
    else
      dl->AddCircleFilled(at, 4.0f, Rgb(p.color));
    const float d2 = (at.x - mouse.x) * (at.x - mouse.x) + (at.y - mouse.y) * (at.y - mouse.y);
    if (hovered && d2 < best) best = d2, hovered_point = static_cast<int>(i);
  }
  dl->PopClipRect();
  // Legend: one line per roof, top left inside the plot.
  float ly = p0.y + 4;
  for (const ChartRoof& r : c.roofs) {
    const ImVec2 a(p0.x + 8, ly + font / 2), b(p0.x + 30, ly + font / 2);
    if (r.dashed)
      DashedLine(dl, a, b, Rgb(r.color), 2.0f);
    else
      dl->AddLine(a, b, Rgb(r.color), 2.0f);
    dl->AddText(ImVec2(p0.x + 36, ly), Rgb(r.color), r.label.c_str());
    ly += font + 2;
  }
  if (hovered) {
    if (hovered_point >= 0) {
      const ChartPoint& p = c.points[static_cast<size_t>(hovered_point)];
      ImGui::SetTooltip("%s\n%s FLOP/B, %s%s", p.label.c_str(), FormatShort(p.intensity, 3).c_str(),
                        FormatRate(p.flops_per_s, "FLOP/s").c_str(), p.measured ? Tr(" (measured)") : "");
    } else if (mouse.x >= p0.x && mouse.x <= p1.x && mouse.y >= p0.y && mouse.y <= p1.y) {
      // Read-out at the mouse's intensity: what each roof allows there.
      const double x = std::pow(10.0, lx0 + (mouse.x - p0.x) / (p1.x - p0.x) * (lx1 - lx0));
      std::string tip = FormatShort(x, 3) + " FLOP/B";
      for (const ChartRoof& r : c.roofs) {
        double y = 0;
        for (size_t i = 1; i < r.line.size(); ++i)
          if (x >= r.line[i - 1].first && x <= r.line[i].first) {
            const double f = (std::log10(x) - std::log10(r.line[i - 1].first)) /
                             std::max(1e-12, std::log10(r.line[i].first) - std::log10(r.line[i - 1].first));
            y = std::pow(10.0, std::log10(r.line[i - 1].second) +
                                   f * (std::log10(r.line[i].second) - std::log10(r.line[i - 1].second)));
          }
        if (y > 0) tip += "\n" + r.label + ": " + FormatRate(y, "FLOP/s");
      }
      ImGui::SetTooltip("%s", tip.c_str());
    }
  }
  ImGui::PopID();
  return hovered_point;
}

}  // namespace gpuplan::ui
