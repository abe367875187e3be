#include <algorithm>
#include "tables.h"
#include "theme.h"

#include <imgui.h>
#include <imgui_internal.h>  // ScrollToItem

#include "gpuplan/i18n.h"
#include "gpuplan/units.h"

namespace gpuplan::ui {

void ItemTip(const std::string& text) {
  if (text.empty() || !ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

namespace {

}  // namespace

void Paragraph(std::string_view text) {
  const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4);
  for (size_t line = 0; line <= text.size();) {
    const size_t nl = std::min(text.find('\n', line), text.size());
    const std::string_view hard = text.substr(line, nl - line);
    // Greedy: as many units as fit (NextLineBreak).
    for (size_t b = 0;;) {
      size_t fit = std::string_view::npos;
      for (size_t e = b;;) {
        const size_t end = NextLineBreak(hard, e);
        if (fit != std::string_view::npos && ImGui::CalcTextSize(hard.data() + b, hard.data() + end).x > width) break;
        fit = end;
        e = end;
        while (e < hard.size() && hard[e] == ' ') ++e;
        if (e >= hard.size()) break;
      }
      ImGui::TextUnformatted(hard.data() + b, hard.data() + fit);
      b = fit;
      while (b < hard.size() && hard[b] == ' ') ++b;
      if (b >= hard.size()) break;
    }
    line = nl + 1;
  }
}

std::string FieldLabel(const FieldInfo& f) {
  return std::string(Tr(f.label)) + "###" + f.key;
}

void SameLineIfFits(float width, float spacing) {
  ImGui::SameLine(0, spacing);
  if (ImGui::GetCursorPosX() + width > ImGui::GetWindowContentRegionMax().x) ImGui::NewLine();
}

void KeepTypingInView() {
  if (ImGui::IsItemActive()) ImGui::ScrollToItem(ImGuiScrollFlags_KeepVisibleCenterY);
}

namespace {

const std::string& CellText(const Cell& cell) {
  static const std::string unknown = "-";
  return cell.kind == Cell::Kind::kUnknown ? unknown : cell.text;
}

// A long text cell (a formula, a note) wraps; a short one (a number, a unit, a name) never does.
constexpr size_t kShortCell = 24;

// Each row as a block, for a place too narrow for the columns side by side.
void StackedRecords(const char* id, const Records& r) {
  if (!ImGui::BeginTable(id, 1, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) return;
  for (const std::vector<Cell>& row : r.rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    std::string pairs, longer;
    for (size_t c = 0; c < row.size() && c < r.cols.size(); ++c) {
      const std::string& t = CellText(row[c]);
      if (c == 0) {
        Paragraph(t);
        continue;
      }
      if (t.empty()) continue;
      const bool wrapping = c + 1 == r.cols.size() && !r.cols[c].right;  // the table's text column ("how")
      if (r.cols[c].right || (t.size() <= kShortCell && !wrapping)) {
        std::string pair;  // "band high 117.1", "8.03 B": one unit each, never split
        for (char ch : r.cols[c].title + " " + t) pair += ch == ' ' ? std::string(kNbsp) : std::string(1, ch);
        pairs += (pairs.empty() ? "" : "   ") + pair;
      } else {
        longer += (longer.empty() ? "" : "\n") + t;
      }
    }
    if (!pairs.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, Muted());
      Paragraph(pairs);
      ImGui::PopStyleColor();
    }
    if (!longer.empty()) Paragraph(longer);
  }
  ImGui::EndTable();
}

}  // namespace

void RecordsTable(const char* id, const Records& r) {
  if (r.cols.empty()) return;
  // The columns' natural widths: the widest cell of each (the last text column wraps past 24 em).
  const ImGuiStyle& style = ImGui::GetStyle();
  const bool last_wraps = !r.cols.back().right;
  float total = 0;
  for (size_t c = 0; c < r.cols.size(); ++c) {
    float w = ImGui::CalcTextSize(r.cols[c].title.c_str()).x;
    for (const std::vector<Cell>& row : r.rows)
      if (c < row.size()) w = std::max(w, ImGui::CalcTextSize(CellText(row[c]).c_str()).x);
    if (c + 1 == r.cols.size() && last_wraps) w = std::min(w, ImGui::GetFontSize() * 12);
    total += w + 2 * style.CellPadding.x + 1;
  }
  if (total > ImGui::GetContentRegionAvail().x) return StackedRecords(id, r);
  if (!ImGui::BeginTable(id, static_cast<int>(r.cols.size()),
                         ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
    return;
  for (size_t c = 0; c < r.cols.size(); ++c)
    ImGui::TableSetupColumn(r.cols[c].title.c_str(), c + 1 == r.cols.size() && last_wraps ? ImGuiTableColumnFlags_WidthStretch : 0);
  ImGui::TableHeadersRow();
  for (const std::vector<Cell>& row : r.rows) {
    ImGui::TableNextRow();
    for (size_t c = 0; c < row.size() && c < r.cols.size(); ++c) {
      ImGui::TableNextColumn();
      const std::string& t = CellText(row[c]);
      if (r.cols[c].right) {
        const float w = ImGui::CalcTextSize(t.c_str()).x;
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, ImGui::GetColumnWidth() - w));
      }
      if (c + 1 == r.cols.size()) Paragraph(t);
      else ImGui::TextUnformatted(t.c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace gpuplan::ui
