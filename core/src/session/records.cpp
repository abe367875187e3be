// core/src/records.cpp — results as records and their printers (records.h).
//
// Index:
//   FormatRecords: table, csv, md, json of one set of records
//   FormatReport: a whole report (title, sections, verdict, notes) as table, md or csv
//   FitRecords ... RooflineRecords: each result's rows
//   CatalogRecords: the catalog lists by kind
#include "gpuplan/records.h"

#include "gpuplan/contradictions.h"

#include "gpuplan/i18n.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "gpuplan/describe.h"
#include "gpuplan/model.h"
#include "gpuplan/presets.h"
#include "gpuplan/small_sort.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

std::string CsvQuote(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Display width in characters: UTF-8 continuation bytes take no column.
// Columns a terminal gives the text: one per code point, two for the East Asian wide ones
// (UAX #11 W and F: CJK, kana, Hangul, full-width forms), so Japanese tables stay aligned.
size_t Width(const std::string& s) {
  size_t w = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) == 0x80) continue;
    const unsigned cp = Utf8ThreeByteAt(s, i);
    const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F) ||
                      (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                      (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                      (cp >= 0xFFE0 && cp <= 0xFFE6);
    w += wide ? 2 : 1;
  }
  return w;
}

// The first n characters (code points) of s.
std::string Prefix(const std::string& s, size_t n) {
  size_t i = 0;
  for (size_t seen = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && seen++ == n) break;
  return s.substr(0, i);
}

// A number as JSON writes it: the shortest text that reads back to the same double.
std::string Plain(double d) {
  if (d == std::floor(d) && std::abs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  return nlohmann::json(d).dump();
}

nlohmann::ordered_json RowsJson(const Records& r) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const auto& row : r.rows) {
    nlohmann::ordered_json o = nlohmann::ordered_json::object();
    for (size_t c = 0; c < r.cols.size(); ++c) {
      const Cell& cell = row[c];
      if (cell.kind == Cell::Kind::kNumber && std::isfinite(cell.number))
        o[r.cols[c].key] = cell.number;
      else if (cell.kind == Cell::Kind::kText)
        o[r.cols[c].key] = cell.text;
      else
        o[r.cols[c].key] = nullptr;
    }
    j.push_back(o);
  }
  return j;
}

}  // namespace

std::string FormatRecords(const Records& r, std::string_view format, std::string_view schema) {
  if (format != "json") return FormatRecords(r, format);
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["schema"] = schema;
  j["rows"] = RowsJson(r);
  return j.dump(2) + "\n";
}

std::string FormatRecords(const Records& r, std::string_view format) {
  const std::vector<Column>& cols = r.cols;
  std::string out;
  if (format == "json") return RowsJson(r).dump(2) + "\n";
  if (format == "csv") {
    for (size_t c = 0; c < cols.size(); ++c) out += (c ? "," : "") + CsvQuote(cols[c].key);
    out += "\n";
    // CSV is for machines: numbers as plain numbers in the JSON's units (no thousands
    // separators, no unit suffix), unknown as an empty field.
    for (const auto& row : r.rows) {
      for (size_t c = 0; c < cols.size(); ++c) {
        const Cell& cell = row[c];
        std::string field;
        if (cell.kind == Cell::Kind::kNumber && std::isfinite(cell.number)) field = Plain(cell.number);
        else if (cell.kind == Cell::Kind::kText) field = CsvQuote(cell.text);
        out += (c ? "," : "") + field;
      }
      out += "\n";
    }
    return out;
  }
  if (format == "md") {
    std::string head = "|", rule = "|";
    for (const Column& col : cols) {
      head += " " + col.title + " |";
      rule += col.right ? " ---: |" : " --- |";
    }
    out += head + "\n" + rule + "\n";
    for (const auto& row : r.rows) {
      std::string line = "|";
      for (const Cell& cell : row) {
        std::string t = cell.text;
        for (size_t p = t.find('|'); p != std::string::npos; p = t.find('|', p + 2)) t.replace(p, 1, "\\|");
        line += " " + t + " |";
      }
      out += line + "\n";
    }
    return out;
  }
  std::vector<size_t> width(cols.size());
  for (size_t c = 0; c < cols.size(); ++c) {
    width[c] = Width(cols[c].title);
    for (const auto& row : r.rows) width[c] = std::max(width[c], Width(row[c].text));
  }
  auto line = [&](auto text_of) {
    std::string l;
    for (size_t c = 0; c < cols.size(); ++c) {
      const std::string t = text_of(c);
      const std::string pad(width[c] - Width(t), ' ');
      l += (c ? "  " : "") + (cols[c].right ? pad + t : (c + 1 == cols.size() ? t : t + pad));
    }
    out += l + "\n";
  };
  line([&](size_t c) { return cols[c].title; });
  for (const auto& row : r.rows) line([&](size_t c) { return row[c].text; });
  return out;
}

std::string FormatReport(const Report& r, std::string_view format) {
  if (format == "csv") return r.sections.empty() ? std::string() : FormatRecords(r.sections[std::min(r.main, r.sections.size() - 1)].records, "csv");
  const bool md = format == "md";
  std::string out;
  auto bullets = [&](const std::vector<std::string>& items, const char* prefix) {
    for (const std::string& x : items) out += (md ? "- " : "  ") + std::string(md ? "" : prefix) + x + "\n";
  };
  if (!r.title.empty()) out += (md ? "### " : "") + r.title + "\n";
  for (const std::string& l : r.lines) out += (md ? "" : "  ") + l + (md ? "  \n" : "\n");
  for (const Section& sec : r.sections) {
    if (!sec.shown) continue;
    out += "\n";
    if (!sec.heading.empty()) out += (md ? "**" + sec.heading + "**\n\n" : "  " + sec.heading + ":\n");
    const std::string table = FormatRecords(sec.records, md ? "md" : "table");
    if (md) {
      out += table;
      continue;
    }
    size_t start = 0;  // indented under the title
    while (start < table.size()) {
      const size_t end = table.find('\n', start);
      out += "  " + table.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  if (!r.after.empty()) out += "\n";
  for (const std::string& l : r.after) out += (md ? "" : "  ") + l + (md ? "  \n" : "\n");
  if (md && (!r.warnings.empty() || !r.notes.empty())) out += "\n";
  bullets(r.warnings, Tr("warning: "));
  bullets(r.notes, Tr("note: "));
  if (!r.assumptions.empty()) {
    out += md ? "\n" + std::string(Tr("Assumptions")) + ":\n\n" : "  " + std::string(Tr("assumptions")) + ":\n";
    for (const std::string& a : r.assumptions) out += (md ? "- " : "    - ") + a + "\n";
  }
  if (!r.state.empty())
    out += md ? "\n" + std::string(Tr("Page state")) + ": `#" + r.state + "`\n"
              : "  " + std::string(Tr("page state")) + ": #" + r.state + "\n";
  return out;
}

std::string ReportSvg(const Report& r, bool dark, int width, size_t max_rows) {
  // Monospaced 12 px text is 0.6 em wide per character in the usual monospace fonts, so a
  // column's width follows from its longest cell without measuring glyphs.
  constexpr double kChar = 7.2, kLine = 18, kPad = 12;
  const size_t columns_fit = static_cast<size_t>((width - 2 * kPad) / kChar);
  const char* ink = dark ? "#e6e6e6" : "#1a1a1a";
  const char* muted = dark ? "#9a9a9a" : "#5f5f5f";
  const char* band = dark ? "#2c3340" : "#e4ebf7";
  const char* stripe = dark ? "#25272b" : "#f4f4f4";
  auto clip = [](const std::string& s, size_t n) {
    if (Width(s) <= n) return s;
    return Prefix(s, n > 1 ? n - 1 : 0) + "…";
  };
  std::string body;
  double y = kPad;
  auto text = [&](double x, const std::string& s, const char* colour, const char* extra = "") {
    body += "<text x=\"" + FormatFixed(x, 1) + "\" y=\"" + FormatFixed(y + 13, 1) + "\" fill=\"" + colour + "\"" + extra + ">" +
            XmlEscape(s) + "</text>\n";
  };
  if (!r.title.empty()) {
    text(kPad, clip(r.title, columns_fit), ink, " font-weight=\"bold\"");
    y += kLine + 4;
  }
  for (const std::string& l : r.lines) {
    text(kPad, clip(l, columns_fit), muted);
    y += kLine;
  }
  const Section* sec = nullptr;
  for (const Section& s : r.sections)
    if (s.shown && !s.records.cols.empty()) {
      sec = &s;
      break;
    }
  if (sec) {
    y += 6;
    if (!sec->heading.empty()) {
      text(kPad, clip(sec->heading, columns_fit), ink, " font-weight=\"bold\"");
      y += kLine;
    }
    std::vector<size_t> keep, chars;
    size_t used = 0;
    for (size_t c = 0; c < sec->records.cols.size(); ++c) {
      if (sec->records.cols[c].title == "how" || sec->records.cols[c].title == Tr("how"))
        continue;  // the explanation: the page's, not a preview's
      size_t n = Width(sec->records.cols[c].title);
      for (size_t i = 0; i < sec->records.rows.size() && i < max_rows; ++i)
        if (c < sec->records.rows[i].size()) n = std::max(n, Width(sec->records.rows[i][c].text));
      n = std::min<size_t>(n, 28);
      if (used + n + 2 > columns_fit) break;
      keep.push_back(c);
      chars.push_back(n);
      used += n + 2;
    }
    const double table_w = std::min<double>(width - 2 * kPad, static_cast<double>(used) * kChar + kPad);
    auto row = [&](const std::vector<std::string>& cells, const char* fill) {
      if (fill) body += "<rect x=\"" + FormatFixed(kPad, 1) + "\" y=\"" + FormatFixed(y, 1) + "\" width=\"" + FormatFixed(table_w, 1) +
                        "\" height=\"" + FormatFixed(kLine, 1) + "\" fill=\"" + fill + "\"/>\n";
      double x = kPad + 4;
      for (size_t k = 0; k < keep.size(); ++k) {
        const bool right = sec->records.cols[keep[k]].right;
        const std::string s = clip(cells[k], chars[k]);
        text(right ? x + static_cast<double>(chars[k]) * kChar : x, s, ink, right ? " text-anchor=\"end\"" : "");
        x += static_cast<double>(chars[k] + 2) * kChar;
      }
      y += kLine;
    };
    std::vector<std::string> head;
    for (size_t c : keep) head.push_back(sec->records.cols[c].title);
    row(head, band);
    for (size_t i = 0; i < sec->records.rows.size() && i < max_rows; ++i) {
      std::vector<std::string> cells;
      for (size_t c : keep) cells.push_back(c < sec->records.rows[i].size() ? sec->records.rows[i][c].text : "");
      row(cells, i % 2 ? stripe : nullptr);
    }
    if (sec->records.rows.size() > max_rows) {
      text(
          kPad + 4,
          "… " + (sec->records.rows.size() - max_rows == 1
                      ? std::string(Tr("1 more row"))
                      : TrF("{0} more rows", {FormatCount(static_cast<int64_t>(sec->records.rows.size() - max_rows))})),
          muted);
      y += kLine;
    }
  }
  if (!r.after.empty()) y += 6;
  for (const std::string& l : r.after) {
    const bool first = &l == &r.after.front();
    // The verdict by its flag (the views set it: their words are the reader's language); the
    // English words for a report built without one.
    const bool no =
        (first && r.verdict < 0) || l.rfind("DOES NOT", 0) == 0 || l.find(": DOES NOT") != std::string::npos;
    const bool yes = (first && r.verdict > 0) || l.rfind("FITS", 0) == 0;
    text(kPad, clip(l, columns_fit), no ? (dark ? "#ff7b72" : "#b3261e") : yes ? (dark ? "#7ee787" : "#1a7f37") : ink,
         no || yes ? " font-weight=\"bold\"" : "");
    y += kLine;
  }
  const int height = static_cast<int>(std::ceil(y + kPad));
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(height) +
         "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) +
         "\" font-family=\"ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"" +
         (dark ? "#1b1c1f" : "#ffffff") + "\"/>\n" + body + "</svg>\n";
}

Records FitRecords(const MemoryEstimate& e) {
  Records r{{{"term", Tr("term")}, {"gib", "GiB", true}, {"gb", "GB", true}, {"formula", Tr("how")}}, {}};
  auto row = [&](const std::string& name, double bytes, const std::string& how) {
    r.rows.push_back({Text(name), Number(bytes / kGiB, FormatFixed(bytes / kGiB, 2)),
                      Number(bytes / kGB, FormatFixed(bytes / kGB, 2)), Text(how)});
  };
  for (const Term& t : e.terms) row(t.name, t.bytes, t.formula);
  row(Tr("Total"), e.total_bytes, Tr("sum of the terms"));
  for (const CapacityRow& c : CapacityRows(e.device)) row(c.name, c.bytes, c.how);
  row(Tr("Usable"), e.usable_bytes, e.usable_basis);
  row(e.fits ? Tr("Free") : Tr("Short"), std::abs(e.headroom_bytes), Tr("usable - total"));
  return r;
}

Records SpeedRecords(const SpeedEstimate& e) {
  Records r{{{"metric", Tr("metric")},
             {"value", Tr("value"), true},
             {"unit", Tr("unit")},
             {"low", Tr("band low"), true},
             {"high", Tr("band high"), true}},
            {}};
  auto row = [&](const char* name, const char* key, double v, const char* unit, const Band& b, int digits) {
    if (e.unknown.count(key)) {
      r.rows.push_back({Text(Tr(name)), Unknown(), Text(TrF("{0} (unknown: {1})", {unit, e.unknown.at(key)})),
                        Unknown(), Unknown()});
      return;
    }
    r.rows.push_back({Text(Tr(name)), Number(v, FormatFixed(v, digits)), Text(unit),
                      Number(v * b.lo, FormatFixed(v * b.lo, digits)),
                      Number(v * b.hi, FormatFixed(v * b.hi, digits))});
  };
  row(N_("decode tokens/s per user"), "tokens_per_s_user", e.tokens_per_s_user, "tokens/s", e.decode_band, 1);
  row(N_("decode tokens/s total"), "tokens_per_s_total", e.tokens_per_s_total, "tokens/s", e.decode_band, 1);
  row(N_("time per output token"), "decode_s", e.decode.seconds, "s",
      Band{1 / e.decode_band.hi, 1 / e.decode_band.lo, 0, ""}, 4);
  row(N_("time to first token"), "ttft_s", e.ttft_s, "s", Band{1 / e.prefill_band.hi, 1 / e.prefill_band.lo, 0, ""}, 3);
  row(N_("prefill tokens/s"), "prefill_tokens_per_s", e.prefill_tokens_per_s, "tokens/s", e.prefill_band, 0);
  return r;
}

Records CostRecords(const Scenario& s, const CostEstimate& c) {
  // In the scenario's currency: the headers name it, the numbers are converted (sorting and
  // JSON read the converted value; the JSON report keeps dollars beside it).
  const std::string sym = MoneySymbol(c.money);
  Records r{{{"option", Tr("option")},
             {"gpu_hour", TrF("{0}/GPU-hour", {sym}), true},
             {"hour", TrF("{0}/hour", {sym}), true},
             {"month", TrF("{0}/month", {sym}), true},
             {"per_m_output", TrF("{0}/1M output", {sym}), true},
             {"per_m_input", TrF("{0}/1M input", {sym}), true},
             {"break_even_months", Tr("break-even months"), true},
             {"basis", Tr("basis")}},
            {}};
  auto usd = [&](double v, int digits) {
    return v > 0 ? Number(v * c.money.per_usd, FormatMoney(v, c.money, digits)) : Unknown();
  };
  auto months = [](double m) { return m > 0 ? Number(m, FormatFixed(m, 1)) : Unknown(); };
  const double n = static_cast<double>(s.Gpus());
  const double owned_gpu_hour = c.owned_hour > 0 ? c.owned_hour / n : 0;
  r.rows.push_back({Text(Tr("cloud on demand")), usd(c.cloud_gpu_hour, 2), usd(c.cloud_hour, 2), usd(c.cloud_month, 0),
                    usd(c.cloud_per_m_output, 3), usd(c.cloud_per_m_input, 3), Unknown(), Text(c.cloud_basis)});
  r.rows.push_back(
      {Text(Tr("cloud spot")), usd(c.spot_effective_gpu_hour, 2), usd(c.spot_hour, 2), usd(c.spot_month, 0),
       usd(c.spot_per_m_output, 3), Unknown(), Unknown(),
       Text(c.spot_gpu_hour > 0 ? TrF("{0} + {1}% interruptions", {c.spot_basis, FormatFixed(s.spot_overhead * 100, 0)})
                                : std::string())});
  r.rows.push_back({Text(Tr("owned")), usd(owned_gpu_hour, 2), usd(c.owned_hour, 2), usd(c.owned_month, 0),
                    usd(c.owned_per_m_output, 3), usd(c.owned_per_m_input, 3), months(c.break_even_months),
                    Text(c.purchase_basis.empty()
                             ? std::string()
                             : TrF("{0}; {1} years, {2}% busy",
                                   {c.purchase_basis, FormatFixed(s.years, 1), FormatFixed(s.utilization * 100, 0)}))});
  return r;
}

// [SECTION] compare columns: one entry per column (records.h explains who reads the list)
namespace {
Cell Positive(double v, int decimals) { return v > 0 ? Number(v, FormatFixed(v, decimals)) : Unknown(); }
Cell Whole(double v) { return v > 0 ? Number(v, FormatCount(std::llround(v))) : Unknown(); }
// Money in the row's currency, three cents' decimals below a thousand (FormatMoney).
Cell Money3(double usd, const Money& m) {
  return usd > 0 ? Number(usd * m.per_usd, FormatMoney(usd, m, 3)) : Unknown();
}
}  // namespace

const std::vector<CompareColumn>& CompareColumns() {
  using O = CompareColumn::Order;
  static const std::vector<CompareColumn> columns = {
      {"gpu", "GPU", "the catalog's accelerator; click a row that fits to use it in the scenario", O::kText,
       [](const CompareRow& x) { return Text(x.gpu); }},
      {"gpus", "GPUs",
       "the fewest GPUs (tensor parallel x pipeline stages) that hold the weights, the KV cache of the batch and the "
       "fixed terms within the engine's cap",
       O::kAscending, [](const CompareRow& x) { return Number(x.gpus, x.gpus ? std::to_string(x.gpus) : "-"); }},
      {"fits", "fits", "whether some count up to the limit holds the scenario", O::kNone,
       [](const CompareRow& x) { return Text(x.fits ? Tr("yes") : Tr("no")); }, true},
      {"max_context", "max ctx",
       "the longest context whose KV cache fits beside the weights at the scenario's batch, at most the model's window",
       O::kDescending,
       [](const CompareRow& x) {
         return x.fits ? Number(static_cast<double>(x.max_context), FormatCount(x.max_context)) : Unknown();
       }},
      {"tokens_per_s_user", "tok/s/user",
       "1 / decode step (max(bytes / bandwidth, FLOPs / peak) + serial terms); the Speed panel shows the terms",
       O::kDescending, [](const CompareRow& x) { return Positive(x.tokens_per_s_user, 1); }},
      {"tokens_per_s_total", "tok/s total", "tokens/s per user x the scenario's batch", O::kDescending,
       [](const CompareRow& x) { return Positive(x.tokens_per_s_total, 1); }},
      {"ttft_s", "TTFT", "time to first token: prefill of one prompt + one decode step", O::kAscending,
       [](const CompareRow& x) { return x.ttft_s > 0 ? Number(x.ttft_s, FormatSeconds(x.ttft_s)) : Unknown(); }},
      {"cloud_per_m_output", "$/1M rented",
       "renting: the catalog's cheapest on-demand offer, $ per GPU-hour x GPUs / (tok/s in all x 3,600 s) x 10^6; "
       "empty where the catalog has no offer for the GPU (hover the cell)",
       O::kAscending, [](const CompareRow& x) { return Money3(x.cloud_per_m_output, x.money); }},
      {"owned_per_m_output", "$/1M owned",
       "owning: the purchase price over the years at the utilisation, plus power x PUE x $/kWh, per GPU-hour x GPUs / "
       "(tok/s in all x 3,600 s) x 10^6; empty where the catalog has no price for the GPU (hover the cell)",
       O::kAscending, [](const CompareRow& x) { return Money3(x.owned_per_m_output, x.money); }},
      {"cloud_month", "$/month rented", "on demand for 730 h x utilisation", O::kAscending,
       [](const CompareRow& x) {
         return x.cloud_month_usd > 0
                    ? Number(x.cloud_month_usd * x.money.per_usd, FormatMoney(x.cloud_month_usd, x.money, 0))
                    : Unknown();
       },
       true},
      {"upfront_usd", "upfront $", "the catalog's latest purchase price x GPUs", O::kAscending,
       [](const CompareRow& x) {
         return x.upfront_usd > 0 ? Number(x.upfront_usd * x.money.per_usd, FormatMoney(x.upfront_usd, x.money, 0))
                                  : Unknown();
       }},
      {"watts", "W", "board power (TDP) x GPUs", O::kAscending, [](const CompareRow& x) { return Whole(x.watts); }},
      {"tokens_per_s_per_kw", "tok/s/kW",
       "tokens/s in all per kW of board power (TDP x GPUs): a floor on energy efficiency, since decode rarely draws "
       "the full TDP",
       O::kDescending,
       [](const CompareRow& x) {
         return x.watts > 0 ? Positive(x.tokens_per_s_total / (x.watts / 1000), 0) : Unknown();
       }},
      {"note", "note", "why it does not fit, or what bounds the decode step", O::kNone,
       [](const CompareRow& x) { return Text(x.note); }, true},
  };
  return columns;
}

const CompareColumn* FindCompareColumn(std::string_view key) {
  for (const CompareColumn& c : CompareColumns())
    if (key == c.key) return &c;
  return nullptr;
}

std::string CompareColumnTitle(const CompareColumn& c, const Money& m) {
  std::string title = Tr(c.title);
  if (const size_t at = title.find('$'); at != std::string::npos && m.code != "USD")
    title.replace(at, 1, MoneySymbol(m));
  return title;
}

Records CompareRecords(const std::vector<CompareRow>& rows) {
  Records r;
  const Money money = rows.empty() ? Money{} : rows.front().money;
  for (const CompareColumn& c : CompareColumns())
    r.cols.push_back({c.key, CompareColumnTitle(c, money),
                      c.order == CompareColumn::Order::kAscending || c.order == CompareColumn::Order::kDescending});
  for (const CompareRow& x : rows) {
    std::vector<Cell> cells;
    for (const CompareColumn& c : CompareColumns()) cells.push_back(c.cell(x));
    r.rows.push_back(std::move(cells));
  }
  return r;
}

void SortCompareRows(std::vector<CompareRow>& rows, std::string_view key) {
  if (key == "count") key = "gpus";  // the column's name before the rename
  if (key == "usd_per_m_output") key = "cloud_per_m_output";  // the mixed column before the split
  const CompareColumn* col = FindCompareColumn(key);
  if (!col) col = FindCompareColumn("tokens_per_s_total");
  using O = CompareColumn::Order;
  if (col->order == O::kNone) return;
  // Each row's sort cell once (cells are text and number), then a stable sort of the order.
  std::vector<Cell> keys;
  keys.reserve(rows.size());
  for (const CompareRow& x : rows) keys.push_back(col->cell(x));
  std::vector<size_t> order(rows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  StableSortSmall(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Cell &ca = keys[a], &cb = keys[b];
    if (col->order == O::kText) return ca.text < cb.text;
    // Known figures first: a row that does not fit, or lacks the figure, has nothing to rank by.
    const bool ka = rows[a].fits && ca.kind == Cell::Kind::kNumber && ca.number > 0;
    const bool kb = rows[b].fits && cb.kind == Cell::Kind::kNumber && cb.number > 0;
    if (ka != kb) return ka;
    if (!ka) return false;
    return col->order == O::kDescending ? ca.number > cb.number : ca.number < cb.number;
  });
  std::vector<CompareRow> sorted;
  sorted.reserve(rows.size());
  for (size_t i : order) sorted.push_back(std::move(rows[i]));
  rows = std::move(sorted);
}

std::string TrainPeakHow(const TrainEstimate& e) {
  return TrF(
      "sum of the terms above, each at its largest (a ceiling: not all are alive at once; the largest "
      "single moment, {0}, holds {1} of them)",
      {e.peak_phase, FormatBytes(e.moment_bytes)});
}

Records TrainRecords(const Catalog& catalog, const Scenario& s, const TrainEstimate& e) {
  // One record per quantity: the memory terms per GPU, then time and cost.
  Records r{{{"quantity", Tr("quantity")}, {"value", Tr("value"), true}, {"unit", Tr("unit")}, {"how", Tr("how")}}, {}};
  auto add = [&](const std::string& what, double v, int digits, const std::string& unit, const std::string& how,
                 const char* key = "") {
    if (auto it = e.unknown.find(key); it != e.unknown.end()) {
      r.rows.push_back({Text(what), Unknown(), Text(unit), Text(TrF("unknown: {0}", {it->second}))});
      return;
    }
    r.rows.push_back({Text(what), Number(v, FormatFixed(v, digits)), Text(unit), Text(how)});
  };
  for (const Term& t : e.terms) add(t.name, t.bytes / kGiB, 2, "GiB", t.formula);
  add(Tr("Total per GPU"), e.total_bytes / kGiB, 2, "GiB", TrainPeakHow(e));
  const Gpu* g = catalog.FindGpu(s.gpu);
  add(Tr("Capacity"), e.capacity_bytes / kGiB, 2, "GiB", (g ? g->name + ": " : std::string()) + e.device.basis);
  add(Tr("Largest micro-batch"), static_cast<double>(e.max_micro_batch), 0, Tr("sequences"),
      Tr("that fits in the capacity"));
  add(Tr("Trainable parameters"), e.trainable_params, 0, Tr("parameters"), s.method);
  add(Tr("FLOPs per token (model)"), e.flops_per_token, 0, "FLOP", e.flops_formula);
  add(Tr("FLOPs per token (6·N·D)"), e.flops_6nd_per_token, 0, "FLOP",
      Tr("6 × active parameters (Kaplan et al. 2020)"));
  add(Tr("FLOPs per token (hardware)"), e.hardware_flops_per_token, 0, "FLOP",
      Tr("what runs: recomputation and flash attention's backward included"));
  const std::string likely = FormatFixed(e.mfu * TrainingBand().first * 100, 0),
                    likely_hi = FormatFixed(e.mfu * TrainingBand().second * 100, 0), hfu = FormatFixed(e.hfu * 100, 1);
  add("MFU", e.mfu * 100, 1, "%",
      s.mfu > 0            ? TrF("given (predicted {0}%)", {FormatFixed(e.mfu_predicted * 100, 1)})
      : s.method == "full" ? TrF("predicted, likely {0}-{1}% (p10-p90 of published runs against the step model); "
                                 "model FLOPs / (step time × GPUs × BF16 peak); {2}% by 6·N·D, HFU {3}%",
                                 {likely, likely_hi, FormatFixed(e.mfu_6nd * 100, 1), hfu})
                           : TrF("predicted, likely {0}-{1}% (p10-p90 of published runs against the step model); "
                                 "model FLOPs / (step time × GPUs × BF16 peak); HFU {2}%",
                                 {likely, likely_hi, hfu}),
      "mfu");
  if (s.mfu <= 0 && e.step_s > 0)
    for (const StepPart& p : e.step_parts)
      if (p.seconds > 0)
        add("  " + p.name, p.seconds / e.step_s * 100, 1, Tr("% of step"), FormatShort(p.seconds * 1000, 3) + " ms",
            "step");
  add(Tr("Throughput"), e.tokens_per_s, 0, "tokens/s",
      e.gpus == 1 ? TrF("1 GPU at MFU {0}%", {FormatFixed(e.mfu * 100, 1)})
                  : TrF("{0} GPUs at MFU {1}%", {FormatCount(e.gpus), FormatFixed(e.mfu * 100, 1)}),
      "tokens_per_s");
  add(Tr("Scaling efficiency"), e.scaling_efficiency * 100, 1, "%",
      Tr("ideal compute / step (bubble, exposed communication)"), "step");
  add(Tr("Time"), e.seconds / 86400, 2, Tr("days"), TrF("{0} tokens", {FormatCount(static_cast<long long>(s.tokens))}),
      "seconds");
  add(Tr("GPU-hours"), e.gpu_hours, 0, Tr("GPU-hours"), "", "gpu_hours");
  // Money in the scenario's currency (its rate and source in the basis where not dollars).
  const Money& m = e.money;
  const std::string rate = m.basis.empty() ? std::string() : "; " + m.basis;
  add(Tr("Cloud cost"), e.cloud_usd * m.per_usd, 0, m.code, e.price_basis + rate, "cloud_usd");
  add(Tr("Spot cost"), e.spot_usd * m.per_usd, 0, m.code,
      TrF("cheapest spot offer + {0}% restarts", {FormatFixed(s.spot_overhead * 100, 0)}), "spot_usd");
  add(Tr("Energy"), e.energy_kwh, 0, "kWh", "TDP × PUE " + FormatFixed(s.pue, 2), "energy_kwh");
  add(Tr("Energy cost"), e.energy_usd * m.per_usd, 0, m.code, FormatMoney(s.kwh_usd, m, 3) + "/kWh", "energy_usd");
  return r;
}

Records RooflineRecords(const Roofline& rl, std::string_view phase) {
  Records r{{{"phase", Tr("phase")},
             {"op", Tr("operation")},
             {"intensity", "FLOP/B", true},
             {"attainable", Tr("attainable"), true},
             {"bound", Tr("bound")},
             {"share", Tr("share %"), true},
             {"how", Tr("how")}},
            {}};
  // The phase and the bound are words of the table here (the JSON keeps the ids).
  auto word = [](const std::string& id) -> std::string {
    return id == "prefill"   ? Tr("prefill")
           : id == "decode"  ? Tr("decode")
           : id == "train"   ? Tr("train")
           : id == "compute" ? Tr("compute")
           : id == "memory"  ? Tr("memory")
           : id == "link"    ? Tr("link")
                             : id;
  };
  for (const RoofOp& op : rl.ops) {
    if (phase != "all" && op.phase != phase) continue;
    r.rows.push_back({Text(word(op.phase)),
                      Text(op.alternative ? TrF("{0} (not used; share if it were)", {op.name}) : op.name),
                      Number(op.intensity, FormatShort(op.intensity, 3)),
                      Number(op.attainable_flops_per_s, FormatRate(op.attainable_flops_per_s, "FLOP/s")),
                      Text(word(op.bound)), Number(op.share * 100, FormatFixed(op.share * 100, 1)), Text(op.formula)});
  }
  return r;
}

namespace {

Cell TflopsCell(const Gpu& g, const char* precision) {
  auto it = g.dense_flops.find(precision);
  return it == g.dense_flops.end() ? Unknown() : Number(it->second / 1e12, FormatFixed(it->second / 1e12, 1));
}

Records PresetRecords() {
  Records r;
  r.cols = {{"id", "id"}, {"panel", Tr("panel")}, {"question", Tr("question")}, {"state", Tr("state")}};
  for (const Preset& p : Presets())
    r.rows.push_back({Text(p.id), Text(p.panel), Text(Tr(p.question.c_str())), Text(p.hash)});
  return r;
}

Records ModelListRecords(const Catalog& cat) {
  Records r;
  r.cols = {{"id", "id"},
            {"name", Tr("name")},
            {"params", Tr("params"), true},
            {"active_params", Tr("active"), true},
            {"layers", Tr("layers"), true},
            {"kv_heads", Tr("KV heads"), true},
            {"attention", Tr("attention (KV cache)")}};
  for (const Model& m : cat.models) {
    const ParamCount c = CountParams(m);  // computed from the architecture
    r.rows.push_back({Text(m.id), Text(m.name), Number(c.total, FormatParams(c.total)),
                      m.moe ? Number(c.active, FormatParams(c.active)) : Unknown(),
                      Number(m.layers, std::to_string(m.layers)), Number(m.kv_heads, std::to_string(m.kv_heads)),
                      Text(DescribeAttention(m))});
  }
  return r;
}

Records InterconnectRecords(const Catalog& cat) {
  Records r;
  r.cols = {{"id", "id"},
            {"name", Tr("name")},
            {"kind", Tr("kind")},
            {"raw_gb_per_s", Tr("raw GB/s per dir."), true},
            {"effective_gb_per_s", Tr("effective"), true},
            {"bidirectional_gb_per_s", Tr("bidir. GB/s"), true},
            {"measured_busbw_gb_per_s", "NCCL busbw", true},
            {"domain_gpus", Tr("domain"), true},
            {"scope", Tr("scope")}};
  auto gbs = [](double b) { return b > 0 ? Number(b / kGB, FormatShort(b / kGB, 2)) : Unknown(); };
  for (const InterconnectSpec& l : cat.interconnects)
    r.rows.push_back({Text(l.id), Text(l.name), Text(l.kind), gbs(l.raw_bytes_per_s), gbs(l.effective_bytes_per_s),
                      gbs(l.bidirectional_bytes_per_s), gbs(l.measured_busbw_bytes_per_s),
                      l.domain_gpus ? Number(l.domain_gpus, std::to_string(l.domain_gpus)) : Unknown(), Text(l.scope)});
  return r;
}

Records CloudRecords(const Catalog& cat) {
  Records r;
  r.cols = {{"id", "id"},
            {"provider", Tr("provider")},
            {"instance", Tr("instance")},
            {"gpu", "GPU"},
            {"gpu_count", Tr("GPUs"), true},
            {"on_demand_usd_per_hour", Tr("on-demand $/h"), true},
            {"spot_usd_per_hour", Tr("spot $/h"), true},
            {"usd_per_gpu_hour", "$/GPU-h", true},
            {"quoted", Tr("quoted")},
            {"access", Tr("access")},
            {"region", Tr("region")},
            {"date", Tr("date")}};
  auto usd = [](double v) { return v > 0 ? Number(v, FormatFixed(v, 2)) : Unknown(); };
  // Yen offers: their own price as quoted, and dollars at the catalog's latest yen rate (a
  // monthly rent at every hour of the month busy).
  const FxRate* jpy = cat.LatestFx("JPY");
  const double rate = jpy ? jpy->per_usd : 0;
  const Money yen{"JPY", 1, ""};
  for (const CloudOffer& o : cat.cloud_offers) {
    const double on_demand = OfferUsdPerHour(o, false, rate), spot = OfferUsdPerHour(o, true, rate);
    const std::string quoted = o.monthly_jpy > 0              ? TrF("{0}/month", {FormatMoney(o.monthly_jpy, yen)})
                               : o.on_demand_jpy_per_hour > 0 ? FormatMoney(o.on_demand_jpy_per_hour, yen) + "/h"
                               : o.spot_jpy_per_hour > 0 ? TrF("{0}/h spot", {FormatMoney(o.spot_jpy_per_hour, yen)})
                                                         : std::string();
    r.rows.push_back({Text(o.id), Text(o.provider), Text(o.instance), Text(o.gpu),
                      Number(o.gpu_count, std::to_string(o.gpu_count)), usd(on_demand), usd(spot),
                      usd(on_demand / o.gpu_count), Text(quoted), Text(o.access.empty() ? Tr("public") : o.access),
                      Text(o.region), Text(o.date)});
  }
  return r;
}

Records EngineRecords(const Catalog& cat) {
  Records r;
  // The behaviours the estimators read from the profile (catalog.h EngineProfile; README of
  // assets/catalog), so a user's profile can be checked against the built-in ones.
  r.cols = {{"id", "id"},
            {"name", Tr("name")},
            {"memory_cap", Tr("cap rule")},
            {"memory_fraction", Tr("memory cap"), true},
            {"of", Tr("of")},
            {"workspace_model", Tr("workspace")},
            {"kv_block_tokens", Tr("KV block"), true},
            {"host", Tr("on the host")},
            {"gguf_int8_matmul", "GGUF INT8 matmul"},
            {"multi_gpu", Tr("multi-GPU (default first)")},
            {"examples", Tr("logged workspace examples"), true},
            {"version", Tr("version")}};
  for (const EngineProfile& e : cat.engines) {
    std::string host = e.input_embedding_on_host ? Tr("input embedding") : "";
    std::string modes;  // the default first, then what split= may pick
    for (MultiGpuMode m : e.multi_gpu_modes) modes += (modes.empty() ? "" : ", ") + std::string(MultiGpuModeName(m));
    if (e.layer_offload) host += std::string(host.empty() ? "" : ", ") + Tr("offloaded layers");
    r.rows.push_back({Text(e.id), Text(e.name), Text(MemoryCapName(e.memory_cap)),
                      e.memory_fraction > 0 ? Number(e.memory_fraction, FormatShort(e.memory_fraction, 3)) : Unknown(),
                      Text(e.memory_fraction_of), Text(WorkspaceModelName(e.workspace_model)),
                      e.kv_block_tokens ? Number(e.kv_block_tokens, std::to_string(e.kv_block_tokens)) : Unknown(),
                      Text(host), Text(e.gguf_int8_matmul ? Tr("yes") : Tr("no")),
                      Text(modes.empty() ? MultiGpuModeName(e.multi_gpu) : modes),
                      Number(static_cast<double>(e.examples.size()), std::to_string(e.examples.size())),
                      Text(e.version.substr(0, 60))});
  }
  return r;
}

Records FormatListRecords(const Catalog& cat) {
  Records r;
  r.cols = {
      {"kind", Tr("kind")}, {"id", "id"}, {"name", Tr("name")}, {"size", Tr("bits/weight or bytes/element"), true}};
  for (const WeightFormat& f : cat.weight_formats)
    r.rows.push_back({Text("weights"), Text(f.id), Text(f.name), Number(f.bits_per_weight, FormatFixed(f.bits_per_weight, 4))});
  for (const KvFormat& f : cat.kv_formats)
    r.rows.push_back({Text("kv"), Text(f.id), Text(f.name), Number(f.bytes_per_element, FormatFixed(f.bytes_per_element, 4))});
  return r;
}

}  // namespace

Records GpuListRecords(const Catalog& cat) {
  Records r;
  r.cols = {{"id", "id"},
            {"name", Tr("name")},
            {"vendor", Tr("vendor")},
            {"year", Tr("year"), true},
            {"memory_quoted", Tr("memory"), true},
            {"memory_bytes", "GiB", true},
            {"bandwidth_gb_s", "GB/s", true},
            {"bf16_dense_tflops", "BF16 TFLOP/s", true},
            {"fp8_dense_tflops", "FP8 TFLOP/s", true},
            {"tdp_w", "W", true}};
  for (const Gpu& g : cat.gpus)
    r.rows.push_back({Text(g.id), Text(g.name), Text(g.vendor), g.year ? Number(g.year, std::to_string(g.year)) : Unknown(),
                      Text(FormatFixed(g.memory_quoted_value, 0) + " " + g.memory_quoted_unit),
                      Number(g.TotalBytes(), FormatFixed(g.TotalBytes() / kGiB, 1)),
                      g.bandwidth_bytes_per_s > 0
                          ? Number(g.bandwidth_bytes_per_s / kGB, FormatFixed(g.bandwidth_bytes_per_s / kGB, 0))
                          : Unknown(),
                      TflopsCell(g, "bf16"), TflopsCell(g, "fp8"),
                      g.tdp_w > 0 ? Number(g.tdp_w, FormatFixed(g.tdp_w, 0)) : Unknown()});
  return r;
}

Records ContradictionRecords() {
  Records r;
  r.cols = {{"id", "id"},
            {"severity", Tr("severity")},
            {"applies_to", Tr("applies to")},
            {"field", Tr("field")},
            {"message", Tr("message (the rule)")}};
  for (const Contradiction& c : Contradictions()) {
    const bool serve = c.kinds & kServeChecks, train = c.kinds & kTrainChecks;
    r.rows.push_back({Text(c.id), Text(c.severity == Severity::kError ? Tr("error") : Tr("warning")),
                      Text(serve && train ? Tr("serving, training")
                           : serve        ? Tr("serving")
                                          : Tr("training")),
                      Text(c.field), Text(Tr(c.text))});
  }
  return r;
}

Records CatalogRecords(const Catalog& cat, std::string_view kind) {
  if (kind == "gpus") return GpuListRecords(cat);
  if (kind == "models") return ModelListRecords(cat);
  if (kind == "interconnects") return InterconnectRecords(cat);
  if (kind == "cloud") return CloudRecords(cat);
  if (kind == "engines") return EngineRecords(cat);
  if (kind == "presets") return PresetRecords();
  return FormatListRecords(cat);
}

}  // namespace gpuplan
