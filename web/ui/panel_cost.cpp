// web/ui/panel_cost.cpp — the Cost panel: renting the scenario's GPUs on demand or on spot
// against buying them — per hour, per month of busy hours, per million tokens — the
// break-even month, and the cumulative cost of each option by month. Same core calls
// (EstimateCost, CostRecords) and the same numbers as `gpuplan cost`.
#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app.h"
#include "chart.h"
#include "gpuplan/records.h"
#include "gpuplan/units.h"
#include "tables.h"
#include "theme.h"

namespace gpuplan::ui {

namespace {

std::string Usd(double v) { return v > 0 ? FormatUsd(v, v >= 1 ? 2 : 3) : "-"; }

}  // namespace

void App::DrawCostInputs() {
  ImGui::PushItemWidth(ImGui::GetFontSize() * 9.0f);
  ImGui::TextColored(Muted(), "Renting");
  for (const char* key : {"price-hour", "spot-overhead", "utilization"}) Field(key);
  ImGui::TextColored(Muted(), "Owning");
  for (const char* key : {"buy-usd", "years", "kwh-usd", "pue"}) Field(key);
  ImGui::PopItemWidth();
}

void App::DrawCost() {
  if (!session_.Fit().ok()) {
    ImGui::TextColored(Bad(), "%s", session_.Fit().error().c_str());
    return;
  }
  if (!session_.Speed().ok()) {
    ImGui::TextColored(Warn(), "Speed: %s", session_.Speed().error().c_str());
    return;
  }
  const CostEstimate& c = CostNow();
  const SpeedEstimate& e = session_.Speed().value();
  const long long gpus = scenario_.Gpus();
  if (embed_.empty()) {
    DrawCostInputs();
    ImGui::Separator();
  }
  ImGui::TextWrapped("%lld GPU(s) busy %s h a month (%s%%), serving %s output tokens/s in all", gpus,
              FormatCount(static_cast<long long>(c.busy_hours_month + 0.5)).c_str(),
              FormatFixed(scenario_.utilization * 100, 0).c_str(), FormatFixed(e.tokens_per_s_total, 1).c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("busy hours = 730 h a month x utilisation %s\ntokens/s from the Speed panel (decode, batch %lld)",
                      FormatFixed(scenario_.utilization, 2).c_str(), scenario_.batch);
  if (!session_.Fit().value().fits) ImGui::TextColored(Bad(), "The scenario does not fit in memory (see Fit): costs are for GPUs that cannot run it.");

  // The options side by side; each figure's tooltip gives its formula.
  const double n = static_cast<double>(gpus);
  struct Option {
    const char* name;
    double gpu_hour, hour, month, per_m_out, per_m_in;
    std::string how;
  };
  const std::string busy = FormatFixed(c.busy_hours_month, 1) + " busy h";
  const Option options[] = {
      {"Cloud on demand", c.cloud_gpu_hour, c.cloud_hour, c.cloud_month, c.cloud_per_m_output, c.cloud_per_m_input,
       c.cloud_basis.empty() ? "no offer in the catalog: set $/GPU-hour" : c.cloud_basis},
      {"Cloud spot", c.spot_effective_gpu_hour, c.spot_hour, c.spot_month, c.spot_per_m_output, 0,
       c.spot_gpu_hour > 0 ? Usd(c.spot_gpu_hour) + " spot x (1 + " + FormatFixed(scenario_.spot_overhead * 100, 0) +
                                 "% interruptions); " + c.spot_basis
                           : "no spot offer in the catalog"},
      {"Owned", c.owned_hour > 0 ? c.owned_hour / n : 0, c.owned_hour, c.owned_month, c.owned_per_m_output,
       c.owned_per_m_input,
       c.purchase_gpu > 0 ? Usd(c.purchase_gpu) + " per GPU (" + c.purchase_basis + ") over " +
                                FormatFixed(scenario_.years, 1) + " years + energy " + Usd(c.energy_hour) + "/h"
                          : "no price in the catalog: set $ per GPU"},
  };
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("cost", 6, flags)) {
    for (const char* h : {"option", "$/GPU-hour", "$/hour", "$/month", "$/1M output", "$/1M input"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const Option& o : options) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(o.name);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", o.how.c_str());
      auto cell = [&](double v, const std::string& formula) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(Usd(v).c_str());
        if (v > 0 && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", formula.c_str());
      };
      cell(o.gpu_hour, o.how);
      cell(o.hour, Usd(o.gpu_hour) + " x " + std::to_string(gpus) + " GPUs");
      cell(o.month, std::string(o.name) == "Owned"
                        ? Usd(c.amortised_month) + " purchase / (" + FormatFixed(scenario_.years * 12, 0) +
                              " months) + energy " + Usd(c.energy_hour) + "/h x " + busy
                        : Usd(o.hour) + "/h x " + busy);
      cell(o.per_m_out, Usd(o.hour) + "/h / (" + FormatFixed(e.tokens_per_s_total, 1) + " tok/s x 3,600 s) x 1M");
      cell(o.per_m_in, Usd(o.hour) + "/h / (" + FormatFixed(e.prefill_tokens_per_s, 0) + " prefill tok/s x 3,600 s) x 1M");
    }
    ImGui::EndTable();
  }
  Track("cost-table");

  if (c.break_even_months > 0) {
    ImGui::TextColored(Good(), "Buying pays off after %s months against on demand%s", FormatFixed(c.break_even_months, 1).c_str(),
                       c.break_even_spot_months > 0
                           ? (", " + FormatFixed(c.break_even_spot_months, 1) + " against spot").c_str()
                           : "");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("purchase %s / (rent %s - energy %s per month)", Usd(c.purchase_gpu * n).c_str(),
                        Usd(c.cloud_month).c_str(), Usd(c.energy_month).c_str());
  } else if (c.purchase_gpu > 0 && c.cloud_hour > 0) {
    ImGui::TextColored(Warn(), "Buying never pays off: the energy costs as much as renting");
  }
  Track("cost-break-even");
  if (c.spot_discount > 0)
    ImGui::TextWrapped("Spot saves %s%% against on demand after the %s%% interruption overhead",
                FormatFixed(c.spot_discount * 100, 0).c_str(), FormatFixed(scenario_.spot_overhead * 100, 0).c_str());

  // Cumulative cost by month: renting grows from zero; owning starts at the purchase.
  std::vector<Series> series;
  auto add = [&](const std::vector<double>& y, ImU32 color, const char* name) {
    if (y.empty()) return;
    series.push_back(Series{c.months, y, {}, {}, color, name});
  };
  add(c.cloud_total, IM_COL32(90, 150, 240, 255), "on demand");
  add(c.spot_total, IM_COL32(240, 160, 60, 255), "spot");
  add(c.owned_total, IM_COL32(80, 190, 120, 255), "owned");
  Chart("cost-chart", series, "months", "$ cumulative", ImGui::GetFontSize() * 12, XAxis::kLinear);
  Track("cost-chart");

  for (const std::string& w : c.warnings) ImGui::TextColored(Warn(), "! %s", w.c_str());
  if (ImGui::TreeNode("Cost lines and assumptions")) {
    for (const CostLine& l : c.lines) ImGui::BulletText("%s: %s = %s", l.name.c_str(), l.formula.c_str(), Usd(l.usd).c_str());
    for (const std::string& a : c.assumptions) ImGui::BulletText("%s", a.c_str());
    ImGui::TreePop();
  }
}

}  // namespace gpuplan::ui
