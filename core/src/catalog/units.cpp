#include "gpuplan/units.h"

#include "gpuplan/i18n.h"
#include "gpuplan/limits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpuplan {

const char* ByteUnitName(ByteUnit unit) {
  switch (unit) {
    case ByteUnit::GiB: return "GiB";
    case ByteUnit::GB: return "GB";
    case ByteUnit::MiB: return "MiB";
    case ByteUnit::MB: return "MB";
    case ByteUnit::KiB: return "KiB";
  }
  return "?";
}

static double ByteUnitSize(ByteUnit unit) {
  switch (unit) {
    case ByteUnit::GiB: return kGiB;
    case ByteUnit::GB: return kGB;
    case ByteUnit::MiB: return kMiB;
    case ByteUnit::MB: return kMB;
    case ByteUnit::KiB: return kKiB;
  }
  return 1.0;
}

std::string FormatFixed(double value, int decimals) {
  if (!std::isfinite(value)) return "n/a";
  if (decimals < 0) decimals = 0;
  if (decimals > 9) decimals = 9;
  char buf[64];
  // snprintf's %f honours LC_NUMERIC; the CLI pins it to "C" and wasm has only "C".
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  // "-0.00" reads as a negative size: print zero without a sign.
  std::string s = buf;
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

std::string FormatUsd(double usd, int decimals) {
  if (!std::isfinite(usd)) return "n/a";
  return "$" + (std::abs(usd) >= 1000 ? FormatCount(std::llround(usd)) : FormatFixed(usd, decimals));
}

std::string MoneySymbol(const Money& money) {
  if (money.code == "JPY") return "¥";
  if (money.code == "EUR") return "€";
  if (money.code == "USD") return "$";
  return money.code + " ";
}

std::string FormatMoney(double usd, const Money& money, int decimals) {
  const double v = usd * money.per_usd;
  if (!std::isfinite(v)) return "n/a";
  const double a = std::abs(v);
  if (decimals < 0) decimals = a >= 100 ? 0 : a >= 1 ? 2 : 4;
  if (money.code == "JPY") decimals = std::max(0, decimals - 2);
  // In Japanese, ten thousand yen and up in 万 (10^4) and 億 (10^8) with four significant digits,
  // as Japanese prices are written ("24.09万円", "1.2億円"); below that "¥9,800".
  if (money.code == "JPY" && CurrentLang() == Lang::kJa && a >= 1e4) {
    const bool oku = a >= 1e8;
    const double n = v / (oku ? 1e8 : 1e4), an = std::abs(n);
    return FormatShort(n, an >= 1000  ? 0
                          : an >= 100 ? 1
                          : an >= 10  ? 2
                                      : 3) +
           (oku ? "\xE5\x84\x84" : "\xE4\xB8\x87") + "\xE5\x86\x86";
  }
  return MoneySymbol(money) + (a >= 1000 ? FormatCount(std::llround(v)) : FormatFixed(v, decimals));
}

unsigned Utf8ThreeByteAt(std::string_view text, size_t at) {
  if (Utf8SequenceAt(text, at) != 3) return 0;
  const auto b = [&](size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(text[at + i])); };
  return ((b(0) & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
}

std::string FormatBytes(double bytes, ByteUnit unit, int decimals) {
  if (!std::isfinite(bytes)) return "n/a";
  return FormatFixed(bytes / ByteUnitSize(unit), decimals) + " " + ByteUnitName(unit);
}

std::string FormatMiB(double bytes) {
  if (!std::isfinite(bytes)) return "n/a";
  return FormatCount(std::llround(bytes / kMiB)) + " MiB";
}

std::string FormatReading(double v) { return v >= 100 ? FormatCount(std::llround(v)) : FormatFixed(v, 1); }

std::string FormatBytesAuto(double bytes, int decimals) {
  if (!std::isfinite(bytes)) return "n/a";
  return FormatBytes(bytes, std::fabs(bytes) >= kGiB ? ByteUnit::GiB : ByteUnit::MiB, decimals);
}

std::string FormatShort(double value, int max_decimals) {
  std::string s = FormatFixed(value, max_decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string FormatCount(int64_t count) {
  const bool negative = count < 0;
  // Work in unsigned so that INT64_MIN does not overflow.
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(count) : static_cast<uint64_t>(count);
  std::string digits = std::to_string(magnitude);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string FormatCountOf(int64_t count, std::string_view one, std::string_view many) {
  return FormatCount(count) + " " + std::string(count == 1 ? one : many);
}

std::string FormatParams(double count) {
  if (!std::isfinite(count)) return "n/a";
  if (std::fabs(count) >= 1e12) return FormatFixed(count / 1e12, 2) + " T";
  if (std::fabs(count) >= 1e9) return FormatFixed(count / 1e9, 2) + " B";
  if (std::fabs(count) >= 1e6) return FormatFixed(count / 1e6, 1) + " M";
  return FormatFixed(count, 0);
}

std::string FormatSeconds(double s) {
  if (!(s > 0) || !std::isfinite(s)) return "-";
  if (s >= 1) return FormatFixed(s, 2) + " s";
  if (s >= 1e-3) return FormatFixed(s * 1e3, s >= 0.01 ? 1 : 2) + " ms";
  return FormatFixed(s * 1e6, 1) + " µs";
}

std::string FormatGBs(double bytes_per_s) { return FormatFixed(bytes_per_s / kGB, 0) + " GB/s"; }
std::string FormatTflops(double flops_per_s) { return FormatFixed(flops_per_s / 1e12, 1) + " TFLOP/s"; }

// Days since 1970-01-01 to a civil date: Howard Hinnant's days_from_civil inverse
// (http://howardhinnant.github.io/date_algorithms.html#civil_from_days), no time zone tables.
std::string FormatDateUtc(std::int64_t unix_seconds) {
  const std::int64_t z = (unix_seconds >= 0 ? unix_seconds : unix_seconds - 86399) / 86400 + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t y = yoe + era * 400 + (m <= 2);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld", static_cast<long long>(y), static_cast<long long>(m),
                static_cast<long long>(d));
  return buf;
}

std::string FormatRate(double v, const std::string& unit) {
  if (!std::isfinite(v)) return "-";
  static const struct {
    double scale;
    const char* prefix;
  } kPrefixes[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  const bool per_byte = unit.find("/B") != std::string::npos;  // intensities: 0.1, 1, 10, 100, 1k, 10k
  if (per_byte && std::fabs(v) >= 1000) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3gk", v / 1000);
    return buf;
  }
  if (!per_byte)
    for (const auto& p : kPrefixes)
      if (std::fabs(v) >= p.scale * 0.9995) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.3g %s", v / p.scale, p.prefix);
        return buf + unit;
      }
  char buf[48];
  std::snprintf(buf, sizeof buf, per_byte ? "%.3g" : "%.3g %s", v, unit.c_str());
  return buf;
}

std::string NearestWord(std::string_view word, const std::vector<std::string>& candidates) {
  // Distances grow with the words: long untrusted input is not compared (64 bytes is longer
  // than any field, flag, command or catalog id).
  if (word.empty() || word.size() > 64) return {};
  const size_t limit = word.size() <= 4 ? 1 : word.size() <= 8 ? 2 : 3;
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  std::string best;
  size_t best_d = limit + 1;
  bool tie = false;
  std::vector<size_t> prev2, prev, cur;
  for (const std::string& cand : candidates) {
    if (cand.empty() || cand.size() > 64 ||
        (cand.size() > word.size() ? cand.size() - word.size() : word.size() - cand.size()) > limit ||
        lower(cand[0]) != lower(word[0]))
      continue;
    const size_t n = word.size(), m = cand.size();
    prev2.assign(m + 1, 0);
    prev.resize(m + 1);
    cur.resize(m + 1);
    for (size_t j = 0; j <= m; ++j) prev[j] = j;
    for (size_t i = 1; i <= n; ++i) {
      cur[0] = i;
      for (size_t j = 1; j <= m; ++j) {
        const bool same = lower(word[i - 1]) == lower(cand[j - 1]);
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
        if (i > 1 && j > 1 && lower(word[i - 1]) == lower(cand[j - 2]) && lower(word[i - 2]) == lower(cand[j - 1]))
          cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      }
      prev2.swap(prev);
      prev.swap(cur);
    }
    const size_t d = prev[m];
    if (d == 0) return cand;
    if (d < best_d) {
      best_d = d;
      best = cand;
      tie = false;
    } else if (d == best_d && cand != best) {
      tie = true;
    }
  }
  return best_d <= limit && !tie ? best : std::string();
}

size_t Utf8SequenceAt(std::string_view t, size_t i) {
  const auto at = [&](size_t k) { return k < t.size() ? static_cast<unsigned char>(t[k]) : 0u; };
  const auto cont = [&](size_t k) { return (at(k) & 0xc0u) == 0x80u; };
  const unsigned b0 = at(i), b1 = at(i + 1);
  if (i >= t.size()) return 0;
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const bool second = b0 == 0xe0 ? b1 >= 0xa0 && b1 <= 0xbf : b0 == 0xed ? b1 >= 0x80 && b1 <= 0x9f : cont(i + 1);
    return second && cont(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const bool second = b0 == 0xf0 ? b1 >= 0x90 && b1 <= 0xbf : b0 == 0xf4 ? b1 >= 0x80 && b1 <= 0x8f : cont(i + 1);
    return second && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

std::string limits::Above(const Limit& limit) {
  return TrF("above {0}, the largest {1} gpuplan accepts ({2})",
             {FormatCount(limit.max), Tr(limit.what), Tr(limit.basis)});
}

namespace {

bool WideLead(unsigned char c) {
  return (c >= 0xE3 && c <= 0xE9) || c == 0xEF;
}
// A character that may not start a line: closing punctuation, the long-vowel mark and the small
// kana (UTF-8, three bytes each).
bool NoBreakBefore(std::string_view s, size_t i) {
  static constexpr std::string_view kClosing[] = {"、", "。", "，", "：", "；", "）", "」", "』", "】", "！",
                                                  "？", "ー", "ぁ", "ぃ", "ぅ", "ぇ", "ぉ", "っ", "ゃ", "ゅ",
                                                  "ょ", "ァ", "ィ", "ゥ", "ェ", "ォ", "ッ", "ャ", "ュ", "ョ"};
  const std::string_view c = s.substr(i, 3);
  for (std::string_view k : kClosing)
    if (c == k) return true;
  return false;
}

}  // namespace

size_t NextLineBreak(std::string_view s, size_t from) {
  for (size_t start = from;;) {
    size_t next = std::string_view::npos;  // set when an opening bracket joins what follows
    for (size_t i = start; i < s.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == ' ') return i;
      if (!WideLead(c) || NoBreakBefore(s, i)) continue;  // punctuation stays with the word before it
      if (i > start) return i;
      // An opening bracket never ends a line: it goes with what follows.
      const std::string_view c3 = s.substr(i, 3);
      if ((c3 == "（" || c3 == "「" || c3 == "『" || c3 == "【") && i + 3 < s.size() && s[i + 3] != ' ') {
        next = i + 3;
        break;
      }
      size_t end = std::min(s.size(), i + 3);
      while (end < s.size() && NoBreakBefore(s, end)) end = std::min(s.size(), end + 3);
      return end;
    }
    if (next == std::string_view::npos) return s.size();
    start = next;
  }
}

}  // namespace gpuplan
