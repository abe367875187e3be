// web/ui/panel_speed.cpp — the Speed panel (decode and prefill with their terms, tokens/s
// against batch and context) and the Compare panel (the whole catalog ranked for the
// scenario). Both read the same caches as the Fit panel; nothing is recomputed per frame.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <imgui.h>

#include "app.h"
#include "tables.h"
#include "theme.h"
#include "chart.h"
#include "gpuplan/units.h"

namespace gpuplan::ui {

namespace {


std::string Ms(double s) { return s >= 1 ? FormatFixed(s, 2) + " s" : FormatFixed(s * 1e3, s >= 0.01 ? 1 : 2) + " ms"; }

std::string Tps(double v) { return ChartValue(v); }

void StepTable(const char* id, const StepTime& t) {
  if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("Term");
  ImGui::TableSetupColumn("Time");
  ImGui::TableSetupColumn("How", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  auto row = [](const std::string& name, double s, const std::string& how) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(name.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(Ms(s).c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", how.c_str());
  };
  for (const TimeTerm& x : t.terms) row(x.name, x.seconds, x.formula);
  row("Step", t.seconds,
      "max(memory " + Ms(t.memory_s) + ", compute " + Ms(t.compute_s) + ") + serial " + Ms(t.serial_s) + ": " + t.bound +
          "-bound");
  ImGui::EndTable();
}

}  // namespace

void App::DrawSpeed() {
  Recompute();
  if (!estimate_->ok() || !speed_) {
    ImGui::TextColored(Warn(), "%s", estimate_->ok() ? "no speed estimate" : estimate_->error().c_str());
    return;
  }
  if (!speed_->ok()) {
    ImGui::TextColored(Warn(), "%s", speed_->error().c_str());
    return;
  }
  const SpeedEstimate& e = speed_->value();
  const Band& b = e.decode_band;
  ImGui::TextWrapped("Decode: %s tok/s per user, %s tok/s in all", Tps(e.tokens_per_s_user).c_str(), Tps(e.tokens_per_s_total).c_str());
  Track("speed-decode");
  {
    std::string tip = "per user = 1 / decode step " + Ms(e.decode.seconds) + "; in all = batch " +
                      std::to_string(scenario_.batch) + " x per user\n";
    for (const TimeTerm& t : e.decode.terms) tip += t.name + ": " + Ms(t.seconds) + " = " + t.formula + "\n";
    ItemTip(tip + "step = max(memory, compute) + serial: " + e.decode.bound + "-bound");
  }
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  ImGui::TextWrapped("band %s-%s per user (%d measurements)", Tps(e.tokens_per_s_user * b.lo).c_str(),
                     Tps(e.tokens_per_s_user * b.hi).c_str(), b.cases);
  ImGui::PopStyleColor();
  if (auto it = e.unknown.find("ttft_s"); it != e.unknown.end())
    ImGui::TextColored(Muted(), "Time to first token and prefill: unknown (%s)", it->second.c_str());
  if (e.ttft_s > 0)
    ImGui::TextWrapped("Time to first token %s (one %s-token prompt); prefill %s tok/s for the batch", Ms(e.ttft_s).c_str(),
                FormatCount(std::min(scenario_.prompt, scenario_.context)).c_str(), Tps(e.prefill_tokens_per_s).c_str());
  if (e.ttft_s > 0) {
    std::string tip = "TTFT = prefill of one prompt " + Ms(e.prefill_one.seconds) + " + one decode step " +
                      Ms(e.decode.seconds) + "\n";
    for (const TimeTerm& t : e.prefill_one.terms) tip += t.name + ": " + Ms(t.seconds) + " = " + t.formula + "\n";
    ItemTip(tip);
  }
  if (cost_.cloud_per_m_output > 0)
    ImGui::TextWrapped("$%s per 1M output tokens, $%s per 1M input (cloud: %s)", FormatFixed(cost_.cloud_per_m_output, 3).c_str(),
                FormatFixed(cost_.cloud_per_m_input, 3).c_str(), cost_.cloud_basis.c_str());
  if (cost_.cloud_per_m_output > 0)
    ItemTip("$ per 1M output = $" + FormatFixed(cost_.cloud_hour, 2) + "/h / (" + Tps(e.tokens_per_s_total) +
            " tok/s x 3,600 s) x 10^6\n$ per 1M input = $" + FormatFixed(cost_.cloud_hour, 2) + "/h / (" +
            Tps(e.prefill_tokens_per_s) + " prefill tok/s x 3,600 s) x 10^6");
  if (cost_.owned_per_m_output > 0)
    ImGui::TextWrapped("$%s per 1M output tokens owned (%s, %s years, %s%% busy)", FormatFixed(cost_.owned_per_m_output, 3).c_str(),
                cost_.purchase_basis.substr(0, 40).c_str(), FormatFixed(scenario_.years, 1).c_str(),
                FormatFixed(scenario_.utilization * 100, 0).c_str());
  if (cost_.owned_per_m_output > 0)
    ItemTip("owned $/h = purchase / (years x 8,760 h x utilisation) + energy = $" + FormatFixed(cost_.owned_hour, 3) +
            "/h\n$ per 1M output = $" + FormatFixed(cost_.owned_hour, 3) + "/h / (" + Tps(e.tokens_per_s_total) +
            " tok/s x 3,600 s) x 10^6");
  for (const std::string& w : e.warnings) ImGui::TextColored(Warn(), "! %s", w.c_str());

  const float h = ImGui::GetFontSize() * 13;
  auto series = [&](const std::vector<CurvePoint>& pts, bool total, ImU32 color, const char* name) {
    Series s{{}, {}, {}, {}, color, name};
    for (const CurvePoint& p : pts) {
      const double v = total ? p.total : p.per_user;
      s.x.push_back(p.x);
      s.y.push_back(v);
      s.lo.push_back(v * b.lo);
      s.hi.push_back(v * b.hi);
    }
    return s;
  };
  const ImU32 blue = IM_COL32(90, 150, 240, 255), orange = IM_COL32(240, 160, 60, 255);
  ImGui::TextUnformatted("Tokens/s against batch (concurrent sequences)");
  Chart("batch", {series(batch_curve_, true, blue, "all users"), series(batch_curve_, false, orange, "per user")},
        "batch", "tok/s", h);
  Track("chart-batch");
  ImGui::TextUnformatted("Tokens/s per user against context");
  Chart("context", {series(context_curve_, false, orange, "per user")}, "context (tokens)", "tok/s", h);
  Track("chart-context");

  if (ImGui::CollapsingHeader("Decode step: the work shown", ImGuiTreeNodeFlags_DefaultOpen)) StepTable("decode", e.decode);
  if (ImGui::CollapsingHeader("Prefill of the batch")) StepTable("prefill", e.prefill);
  if (ImGui::CollapsingHeader("Cost: the work shown")) {
    if (ImGui::BeginTable("cost", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      ImGui::TableSetupColumn("Line");
      ImGui::TableSetupColumn("$ per hour");
      ImGui::TableSetupColumn("How", ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableHeadersRow();
      for (const CostLine& l : cost_.lines) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(l.name.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(FormatFixed(l.usd, 4).c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", l.formula.c_str());
      }
      ImGui::EndTable();
    }
    if (cost_.break_even_months > 0)
      ImGui::Text("Buying breaks even after %s months of renting the same busy hours",
                  FormatFixed(cost_.break_even_months, 1).c_str());
    for (const std::string& w : cost_.warnings) ImGui::TextColored(Warn(), "! %s", w.c_str());
    for (const std::string& a : cost_.assumptions) ImGui::BulletText("%s", a.c_str());
  }
  if (ImGui::TreeNode("Assumptions")) {
    for (const std::string& a : e.assumptions) ImGui::BulletText("%s", a.c_str());
    ImGui::TreePop();
  }
  ImGui::TextColored(Muted(), "CLI twin:");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", CliCommand("speed", scenario_).c_str());
}

const std::vector<CompareRow>& App::CompareRows() {
  Recompute();
  if (compare_dirty_) {
    const auto t0 = std::chrono::steady_clock::now();
    compare_rows_ = CompareCatalog(*catalog_, scenario_);
    compare_last_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    compare_dirty_ = false;
    compare_sorted_by_.clear();
  }
  if (compare_sorted_by_ != compare_sort_) {  // sort once per change, not every frame
    SortCompareRows(compare_rows_, compare_sort_);
    compare_sorted_by_ = compare_sort_;
  }
  return compare_rows_;
}

void App::DrawCompare() {
  const std::vector<CompareRow>& rows = CompareRows();
  ImGui::Checkbox("Fits only", &compare_fits_only_);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::InputTextWithHint("##vendor", "vendor...", compare_vendor_, sizeof compare_vendor_);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::DragFloat("min tok/s", &compare_min_tps_, 1, 0, 100000, "%.0f");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::DragFloat("max TTFT ms", &compare_max_ttft_ms_, 10, 0, 600000, "%.0f");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::DragFloat("max upfront $", &compare_max_usd_, 100, 0, 1e8, "%.0f");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::DragFloat("max W", &compare_max_watts_, 10, 0, 1e6, "%.0f");
  ImGui::SameLine();
  ImGui::TextColored(Muted(), "(0 = no limit)");
  ImGui::TextColored(Muted(), "%zu accelerators ranked in %.2f ms; fewest GPUs (1-%d) that hold the scenario", rows.size(),
                     compare_last_ms_, kCompareMaxCount);

  static const struct { const char* title; const char* key; } kCols[] = {
      {"GPU", "gpu"},           {"GPUs", "gpus"},        {"max ctx", "max_context"}, {"tok/s/user", "tokens_per_s_user"},
      {"tok/s total", "tokens_per_s_total"}, {"TTFT", "ttft_s"}, {"$/1M out", "usd_per_m_output"},
      {"upfront $", "upfront_usd"}, {"W", "watts"},
  };
  const int ncols = static_cast<int>(std::size(kCols)) + 1;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable |
                                ImGuiTableFlags_Hideable;
  if (!ImGui::BeginTable("compare", ncols, flags, ImVec2(0, ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 3)))
    return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (const auto& c : kCols) {
    ImGuiTableColumnFlags f = std::string(c.key) == compare_sort_ ? ImGuiTableColumnFlags_DefaultSort : 0;
    if (std::string(c.key) == "gpu") f |= ImGuiTableColumnFlags_WidthStretch;
    ImGui::TableSetupColumn(c.title, f);
  }
  ImGui::TableSetupColumn("note", ImGuiTableColumnFlags_NoSort | ImGuiTableColumnFlags_DefaultHide);
  // Headers one by one, so each reports its rectangle (tests click them to sort).
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < ncols; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    if (c < static_cast<int>(std::size(kCols))) Track((std::string("compare-col:") + kCols[c].key).c_str());
  }
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
    if (specs->SpecsDirty && specs->SpecsCount > 0) {
      const int col = specs->Specs[0].ColumnIndex;
      if (col >= 0 && col < static_cast<int>(std::size(kCols))) compare_sort_ = kCols[col].key;
      specs->SpecsDirty = false;
    }
  }
  const CompareFilter filter = CompareFilterNow();  // the same rows the exports and the CLI command give
  for (const CompareRow& r : rows) {
    if (!PassesFilter(r, filter)) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (ImGui::Selectable((r.name + "##" + r.gpu).c_str(), r.gpu == scenario_.gpu, ImGuiSelectableFlags_SpanAllColumns) &&
        r.fits) {
      Edit("gpu", r.gpu);
      Edit("tp", std::to_string(r.gpus / std::max(1, scenario_.pp)));
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\n%s%s", r.name.c_str(), r.note.c_str(),
                        r.fits ? ("\nClick: use " + std::to_string(r.gpus) + " x " + r.gpu + " in the scenario").c_str() : "");
    ImGui::TableNextColumn();
    ImGui::Text("%d", r.gpus);
    ItemTip("the fewest GPUs (tensor parallel x pipeline stages) that hold the weights, the KV cache of the batch and "
            "the fixed terms within the engine's cap");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.fits ? FormatCount(r.max_context).c_str() : "-");
    ItemTip("the longest context whose KV cache fits beside the weights at the scenario's batch, at most the model's window");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.tokens_per_s_user > 0 ? Tps(r.tokens_per_s_user).c_str() : "-");
    ItemTip("1 / decode step (max(bytes / bandwidth, FLOPs / peak) + serial terms); the Speed panel shows the terms");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.tokens_per_s_total > 0 ? Tps(r.tokens_per_s_total).c_str() : "-");
    ItemTip("per user x batch " + std::to_string(scenario_.batch));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.ttft_s > 0 ? Ms(r.ttft_s).c_str() : "-");
    ItemTip("prefill of one prompt + one decode step");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.usd_per_m_output > 0 ? (FormatFixed(r.usd_per_m_output, 3) + " " + r.price_basis).c_str() : "-");
    ItemTip("$ per GPU-hour x GPUs / (tok/s in all x 3,600 s) x 10^6 (" + r.price_basis + ")");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.upfront_usd > 0 ? FormatCount(static_cast<long long>(r.upfront_usd)).c_str() : "-");
    ItemTip("the catalog's latest purchase price x GPUs");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.watts > 0 ? FormatCount(static_cast<long long>(r.watts)).c_str() : "-");
    ItemTip("board power (TDP) x GPUs");
    ImGui::TableNextColumn();
    ImGui::TextColored(Muted(), "%s", r.note.c_str());
  }
  ImGui::EndTable();
  ImGui::TextColored(Muted(), "CLI twin:");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", (CliCommand("compare", scenario_) + CompareCliFlags()).c_str());
}

}  // namespace gpuplan::ui
