// web/ui/panel_roofline.cpp — the Roofline panel: the scenario's operations under its GPU's
// roof, other accelerators overlaid, measured ceilings and points from a loaded probe result,
// and the table of operations. Same core calls and numbers as `gpuplan roofline`.
#include <algorithm>

#include <imgui.h>

#include "app.h"
#include "tables.h"
#include "theme.h"
#include "gpuplan/units.h"
#include "roofline_chart.h"

namespace gpuplan::ui {

void App::DrawRoofline() {
  if (!session_.RooflineResult().ok()) {
    ImGui::TextColored(Bad(), "%s", session_.RooflineResult().error().c_str());
    return;
  }
  const Roofline& rl = session_.RooflineResult().value();
  // Phases and overlays are view options: a link and `gpuplan roofline --phase/--overlay` carry them.
  const ViewOptions& view = session_.view();
  static const char* const kPhases[][2] = {{"prefill", "Prefill"}, {"decode", "Decode"}, {"train", "Training step"}};
  for (size_t i = 0; i < std::size(kPhases); ++i) {
    if (i) ImGui::SameLine();
    bool on = view.ShowsPhase(kPhases[i][0]);
    if (ImGui::Checkbox(kPhases[i][1], &on)) {
      std::string phases;
      for (const auto& p : kPhases)
        if (p[0] == kPhases[i][0] ? on : view.ShowsPhase(p[0])) phases += (phases.empty() ? "" : ",") + std::string(p[0]);
      Edit("phase", phases == "prefill,decode,train" ? "all" : phases.empty() ? "none" : phases);
    }
    Track((std::string("roof-") + kPhases[i][0]).c_str());
  }
  auto set_overlay = [&](std::vector<std::string> ids) {
    std::string text;
    for (const std::string& id : ids) text += (text.empty() ? "" : ",") + id;
    Edit("overlay", text);
  };
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  if (ImGui::BeginCombo("##overlay", "Overlay another GPU...")) {
    for (const Gpu& g : catalog_->gpus) {
      std::vector<std::string> ids = view.overlay;
      const auto at = std::find(ids.begin(), ids.end(), g.id);
      const bool on = at != ids.end();
      if (g.id == rl.roof.id || g.bandwidth_bytes_per_s <= 0 || g.dense_flops.empty()) continue;
      if (ImGui::Selectable(g.name.c_str(), on)) {
        if (on) ids.erase(at);
        else if (ids.size() < 6) ids.push_back(g.id);
        set_overlay(ids);
      }
    }
    ImGui::EndCombo();
  }
  Track("roof-overlay");
  for (size_t i = 0; i < view.overlay.size(); ++i) {
    ImGui::SameLine();
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SmallButton((view.overlay[i] + " x").c_str())) {
      std::vector<std::string> ids = view.overlay;
      ids.erase(ids.begin() + static_cast<long>(i));
      ImGui::PopID();
      set_overlay(ids);
      break;
    }
    ImGui::PopID();
  }
  RooflineWidget("roofline", session_.Chart(), std::max(ImGui::GetFontSize() * 18, ImGui::GetContentRegionAvail().y * 0.55f));
  Track("chart-roofline");
  ImGui::TextColored(Muted(), "%s matmuls; ridge %s FLOP/B against %s. Hover a point or the plot for values.",
                     rl.precision.c_str(), FormatShort(rl.roof.Ridge(rl.precision), 3).c_str(),
                     rl.roof.memory.empty() ? "memory" : rl.roof.memory.front().label.c_str());
  // The ceilings and the operations of the phases shown: the rows `gpuplan roofline` prints.
  DrawReport(*FindView("roofline"), false);
  Track("roof-table");
}

}  // namespace gpuplan::ui
