// web/ui/panel_fit.cpp — the Fit panel: the verdict, a bar of the terms against the capacity,
// the breakdown (the same rows as `gpuplan fit` and its Markdown), max context and batch, and
// a summary of speed and cost for the same scenario.
#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app.h"
#include "gpuplan/capacity.h"
#include "gpuplan/i18n.h"
#include "gpuplan/units.h"
#include "tables.h"
#include "theme.h"

namespace gpuplan::ui {

void App::DrawResult() {
  if (!session_.Fit().ok()) {
    ImGui::TextColored(Bad(), "%s", session_.Fit().error().c_str());
    return;
  }
  const MemoryEstimate& e = session_.Fit().value();
  // A stacked bar: each term's share of the capacity.
  {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetFontSize() * 1.2f;
    double scale = std::max(e.capacity_bytes, e.total_bytes);
    // One colour per term (five or six of them: weights, KV, activations, overhead, graphs...).
    const ImU32 colors[] = {IM_COL32(90, 140, 230, 255),  IM_COL32(230, 160, 60, 255), IM_COL32(120, 190, 120, 255),
                            IM_COL32(150, 150, 160, 255), IM_COL32(200, 110, 190, 255), IM_COL32(90, 190, 200, 255)};
    constexpr size_t kColors = sizeof colors / sizeof colors[0];
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), Colors().bar_bg);
    float x = p.x;
    for (size_t i = 0; i < e.terms.size() && scale > 0; ++i) {
      float tw = static_cast<float>(e.terms[i].bytes / scale) * w;
      dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + tw, p.y + h), colors[i % kColors]);
      x += tw;
    }
    if (scale > 0) {
      float cap_x = p.x + static_cast<float>(e.capacity_bytes / scale) * w;
      dl->AddLine(ImVec2(cap_x, p.y - 2), ImVec2(cap_x, p.y + h + 2), Colors().marker, 2.0f);
      const float use_x = p.x + static_cast<float>(e.usable_bytes / scale) * w;  // the engine's cap
      dl->AddLine(ImVec2(use_x, p.y - 2), ImVec2(use_x, p.y + h + 2), IM_COL32(255, 220, 80, 255), 2.0f);
    }
    ImGui::Dummy(ImVec2(w, h));
    Track("usage-bar");
    ItemTip(Tr("the terms against the capacity and the engine's cap"));
    // The legend: a swatch and the term's size each, flowing over as many lines as it takes.
    const float box = ImGui::GetFontSize() * 0.8f;
    auto entry = [&](bool first, ImU32 color, bool line, const std::string& text) {
      if (!first)
        SameLineIfFits(box + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(text.c_str()).x, ImGui::GetFontSize());
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const float y = at.y + (ImGui::GetTextLineHeight() - box) / 2;
      if (line) dl->AddLine(ImVec2(at.x + box / 2, y - 1), ImVec2(at.x + box / 2, y + box + 1), color, 2.0f);
      else dl->AddRectFilled(ImVec2(at.x, y), ImVec2(at.x + box, y + box), color);
      ImGui::Dummy(ImVec2(box, ImGui::GetTextLineHeight()));
      ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
      ImGui::TextUnformatted(text.c_str());
    };
    for (size_t i = 0; i < e.terms.size(); ++i)
      entry(i == 0, colors[i % kColors], false, e.terms[i].name + " " + FormatBytes(e.terms[i].bytes, ByteUnit::GiB));
    entry(e.terms.empty(), Colors().marker, true, TrF("capacity {0}", {FormatBytes(e.capacity_bytes, ByteUnit::GiB)}));
    entry(false, IM_COL32(255, 220, 80, 255), true, TrF("usable {0}", {FormatBytes(e.usable_bytes, ByteUnit::GiB)}));
    Track("usage-legend");
  }
  // The rows `gpuplan fit` prints, the verdict first; then speed and cost of the same scenario.
  DrawReport(*FindView("fit"), true);
  DrawSpeedSummary();
}

// Speed of the same scenario, with the reference set's band: the rows of gpuplan speed.
void App::DrawSpeedSummary() {
  ImGui::Separator();
  if (!session_.Speed().ok()) {
    ImGui::TextColored(Warn(), "%s", TrF("Speed: {0}", {session_.Speed().error()}).c_str());
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  Paragraph(Tr("Speed of the same scenario, with the band from the reference set (the Speed panel shows the work):"));
  ImGui::PopStyleColor();
  RecordsTable("speed-summary", SpeedRecords(session_.Speed().value()));
  Track("speed");
}

}  // namespace gpuplan::ui
