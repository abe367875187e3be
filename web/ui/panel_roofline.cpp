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

namespace {


}  // namespace

RooflineChart App::MakeChart() {
  const Roofline& rl = roofline_->value();
  std::vector<Roof> roofs = {rl.roof};
  for (const std::string& id : roof_overlay_)
    if (const Gpu* g = catalog_->FindGpu(id); g && id != rl.roof.id) roofs.push_back(GpuRoof(*catalog_, *g));
  std::vector<ChartPoint> points;
  if (gpu_probe_) {
    // The probe's ceilings join the roof of the GPU it ran on (or a roof of its own).
    const Gpu* measured = MatchProbeGpu(*catalog_, *gpu_probe_);
    auto it = std::find_if(roofs.begin(), roofs.end(), [&](const Roof& r) { return measured && r.id == measured->id; });
    if (it == roofs.end()) {
      roofs.push_back(measured ? GpuRoof(*catalog_, *measured) : Roof{"measured", gpu_probe_->device_name, {}, {}});
      it = roofs.end() - 1;
    }
    AddMeasuredCeilings(*it, *gpu_probe_);
    points = MeasuredGemmPoints(*gpu_probe_);
  }
  if (cpu_roof_) {
    roofs.push_back(*cpu_roof_);
    for (const ChartPoint& p : cpu_points_) points.push_back(p);
  }
  for (const RoofOp& op : rl.ops) {
    const int phase = op.phase == "prefill" ? 0 : op.phase == "decode" ? 1 : 2;
    if (roof_phases_[phase])
      points.push_back(
          {op.phase + ": " + op.name, op.intensity, op.attainable_flops_per_s, PhaseColor(op.phase), false});
  }
  return MakeRooflineChart(roofs, points, rl.precision);
}

void App::DrawRoofline() {
  Recompute();
  if (!roofline_->ok()) {
    ImGui::TextColored(Bad(), "%s", roofline_->error().c_str());
    return;
  }
  const Roofline& rl = roofline_->value();
  if (ImGui::Checkbox("Prefill", &roof_phases_[0])) roof_chart_.reset();
  Track("roof-prefill");
  ImGui::SameLine();
  if (ImGui::Checkbox("Decode", &roof_phases_[1])) roof_chart_.reset();
  Track("roof-decode");
  ImGui::SameLine();
  if (ImGui::Checkbox("Training step", &roof_phases_[2])) roof_chart_.reset();
  Track("roof-train");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  if (ImGui::BeginCombo("##overlay", "Overlay another GPU...")) {
    for (const Gpu& g : catalog_->gpus) {
      const bool on = std::find(roof_overlay_.begin(), roof_overlay_.end(), g.id) != roof_overlay_.end();
      if (g.id == rl.roof.id || g.bandwidth_bytes_per_s <= 0 || g.dense_flops.empty()) continue;
      if (ImGui::Selectable(g.name.c_str(), on)) {
        roof_chart_.reset();
        if (on)
          roof_overlay_.erase(std::find(roof_overlay_.begin(), roof_overlay_.end(), g.id));
        else if (roof_overlay_.size() < 6)
          roof_overlay_.push_back(g.id);
      }
    }
    ImGui::EndCombo();
  }
  Track("roof-overlay");
  for (size_t i = 0; i < roof_overlay_.size(); ++i) {
    ImGui::SameLine();
    const Gpu* g = catalog_->FindGpu(roof_overlay_[i]);
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SmallButton(((g ? g->id : roof_overlay_[i]) + " x").c_str())) {
      roof_chart_.reset();
      roof_overlay_.erase(roof_overlay_.begin() + static_cast<long>(i));
      ImGui::PopID();
      break;
    }
    ImGui::PopID();
  }
  if (!roof_chart_) roof_chart_ = MakeChart();  // not per frame: only after a change
  RooflineWidget("roofline", *roof_chart_, std::max(ImGui::GetFontSize() * 18, ImGui::GetContentRegionAvail().y * 0.55f));
  Track("chart-roofline");
  ImGui::TextColored(Muted(), "%s matmuls; ridge %s FLOP/B against %s. Hover a point or the plot for values.",
                     rl.precision.c_str(), FormatShort(rl.roof.Ridge(rl.precision), 3).c_str(),
                     rl.roof.memory.empty() ? "memory" : rl.roof.memory.front().label.c_str());
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("roof-ops", 6, kFlags)) {
    ImGui::TableSetupColumn("Phase");
    ImGui::TableSetupColumn("Operation");
    ImGui::TableSetupColumn("FLOP/B");
    ImGui::TableSetupColumn("Attainable");
    ImGui::TableSetupColumn("Bound");
    ImGui::TableSetupColumn("Share of phase", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const RoofOp& op : rl.ops) {
      const int phase = op.phase == "prefill" ? 0 : op.phase == "decode" ? 1 : 2;
      if (!roof_phases_[phase]) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(op.phase.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted((op.name + (op.alternative ? " (not used)" : "")).c_str());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s%s", op.formula.c_str(),
                          op.alternative ? "\nNot this scenario's attention (flash field): its share is what it would "
                                           "take in place of the one used."
                                         : "");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatShort(op.intensity, 3).c_str());
      ItemTip("intensity = FLOPs / bytes = " + FormatShort(op.flops, 4) + " / " + FormatShort(op.bytes, 4) + " (per GPU, per " +
              "occurrence)\n" + op.formula);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatRate(op.attainable_flops_per_s, "FLOP/s").c_str());
      ItemTip("attainable = min(peak, intensity x bandwidth) against the " + op.ceiling + " ceiling: " + op.bound +
              "-bound");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(op.bound.c_str());
      ImGui::TableNextColumn();
      ImGui::ProgressBar(static_cast<float>(op.share), ImVec2(-1, 0), (FormatFixed(op.share * 100, 1) + "%").c_str());
      ItemTip("time per step = " + FormatShort(op.count, 4) + " x max(FLOPs / peak, bytes / bandwidth) = " +
              FormatShort(op.seconds * 1e3, 4) + " ms; share = that / the " + op.phase + " phase's total");
    }
    ImGui::EndTable();
  }
  Track("roof-table");
  if (ImGui::TreeNode("Assumptions")) {
    for (const std::string& a : rl.assumptions) ImGui::BulletText("%s", a.c_str());
    ImGui::TreePop();
  }
  ImGui::TextColored(Muted(), "CLI twin:");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", CliCommand("roofline", scenario_).c_str());
}

}  // namespace gpuplan::ui
